#include "model/expr.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace prestage::model {
namespace {

// Recursive descent over the text; `vars == nullptr` only validates.
struct Parser {
  const std::string& s;
  std::size_t i = 0;
  const std::map<std::string, double>* vars;
  const std::vector<std::string>* names;
  int depth = 0;  // open parentheses; recursion is bounded by kMaxDepth
  static constexpr int kMaxDepth = 100;

  void ws() {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  }
  double expr() {
    double v = term();
    for (;;) {
      ws();
      if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
        char op = s[i++];
        double r = term();
        v = op == '+' ? v + r : v - r;
      } else {
        return v;
      }
    }
  }
  double term() {
    double v = factor();
    for (;;) {
      ws();
      if (i < s.size() && (s[i] == '*' || s[i] == '/')) {
        char op = s[i++];
        double r = factor();
        if (op == '/' && vars && r == 0) throw std::invalid_argument("division by zero");
        v = op == '*' ? v * r : (vars ? v / r : 1);
      } else {
        return v;
      }
    }
  }
  double factor() {
    ws();
    if (i >= s.size()) throw std::invalid_argument("unexpected end of expression");
    if (s[i] == '(') {
      if (++depth > kMaxDepth)
        throw std::invalid_argument("parentheses nested deeper than " + std::to_string(kMaxDepth));
      ++i;
      double v = expr();
      ws();
      if (i >= s.size() || s[i] != ')') throw std::invalid_argument("missing ')'");
      ++i;
      --depth;
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(s[i]))) {
      std::size_t j = i;
      while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '.')) ++j;
      // The whole run of digits and dots is the number ("1.2.3" is an error, not 1.2), finite.
      const std::string token = s.substr(i, j - i);
      char* end = nullptr;
      errno = 0;
      const double v = std::strtod(token.c_str(), &end);
      if (end != token.c_str() + token.size())
        throw std::invalid_argument("malformed number '" + token + "'");
      if (errno == ERANGE || !std::isfinite(v))
        throw std::invalid_argument("number '" + token + "' is out of range");
      i = j;
      return v;
    }
    if (std::isalpha(static_cast<unsigned char>(s[i])) || s[i] == '_') {
      std::size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      std::string id = s.substr(i, j - i);
      i = j;
      if (vars) {
        auto it = vars->find(id);
        if (it == vars->end()) throw std::invalid_argument("unbound name '" + id + "'");
        return it->second;
      }
      bool ok = false;
      for (const auto& n : *names) ok = ok || n == id;
      if (!ok) {
        std::string list;
        for (const auto& n : *names) list += (list.empty() ? "" : ", ") + n;
        throw std::invalid_argument("unknown name '" + id + "' (known: " + list + ")");
      }
      return 1;
    }
    throw std::invalid_argument(std::string("unexpected character '") + s[i] + "'");
  }
};

}  // namespace

SizeExpr::SizeExpr(std::string text, const std::vector<std::string>& names)
    : text_(std::move(text)) {
  Parser p{text_, 0, nullptr, &names, 0};
  p.expr();
  p.ws();
  if (p.i != text_.size()) throw std::invalid_argument("trailing characters in expression");
}

double SizeExpr::eval(const std::map<std::string, double>& vars) const {
  Parser p{text_, 0, &vars, nullptr, 0};
  return p.expr();
}

}  // namespace prestage::model
