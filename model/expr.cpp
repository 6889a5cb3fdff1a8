#include "model/expr.hpp"

#include <cctype>
#include <stdexcept>

namespace prestage::model {
namespace {

// Recursive descent over the text; `vars == nullptr` only validates.
struct Parser {
  const std::string& s;
  std::size_t i = 0;
  const std::map<std::string, double>* vars;
  const std::vector<std::string>* names;

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
      ++i;
      double v = expr();
      ws();
      if (i >= s.size() || s[i] != ')') throw std::invalid_argument("missing ')'");
      ++i;
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(s[i]))) {
      std::size_t j = i;
      while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '.')) ++j;
      double v = std::stod(s.substr(i, j - i));
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
  Parser p{text_, 0, nullptr, &names};
  p.expr();
  p.ws();
  if (p.i != text_.size()) throw std::invalid_argument("trailing characters in expression");
}

double SizeExpr::eval(const std::map<std::string, double>& vars) const {
  Parser p{text_, 0, &vars, nullptr};
  return p.expr();
}

}  // namespace prestage::model
