#pragma once
// Size expressions in pipeline files, e.g. "n*elem*(1+lot_of_memory)": integers, identifiers,
// + - * / and parentheses. Identifiers are bound when a scenario is built (n, elem,
// lot_of_memory, ...). Parsing checks syntax and names up front; evaluation is exact in double.
#include <map>
#include <string>
#include <vector>

namespace prestage::model {

class SizeExpr {
 public:
  SizeExpr() = default;
  // Throws std::invalid_argument (message says what is wrong) on syntax errors or on identifiers
  // outside `names`.
  SizeExpr(std::string text, const std::vector<std::string>& names);
  double eval(const std::map<std::string, double>& vars) const;
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

}  // namespace prestage::model
