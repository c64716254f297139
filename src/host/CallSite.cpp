#include "host/CallSite.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iterator>

namespace simulee::host {
namespace {

// Appends `operand`'s nodes to `into`, shifting their operand indices (and
// its procedures, shifting the calls' indices).
uint32_t appendNodes(Formula &into, const Formula &operand) {
  auto offset = uint32_t(into.nodes.size());
  auto procedures = uint32_t(into.procedures.size());
  into.procedures.insert(into.procedures.end(), operand.procedures.begin(),
                         operand.procedures.end());
  for (Formula::Node node : operand.nodes) {
    node.lhs += offset;
    node.rhs += offset;
    if (node.op == Formula::Op::Call)
      node.argument += procedures;
    into.nodes.push_back(node);
  }
  return uint32_t(into.nodes.size() - 1);
}

// Runs `procedure` on `parameters`: its return value, or nullopt where a
// step has no value or it runs past Procedure::kMostSteps.
std::optional<int64_t> run(const Procedure &procedure, const std::vector<int64_t> &parameters) {
  std::vector<int64_t> locals(procedure.locals, 0);
  std::copy(parameters.begin(), parameters.end(), locals.begin());
  auto local = [&](uint32_t index) -> std::optional<int64_t> {
    return index < locals.size() ? std::optional(locals[index]) : std::nullopt;
  };
  size_t at = 0;
  for (uint64_t steps = 0; steps < Procedure::kMostSteps && at < procedure.steps.size(); ++steps) {
    const Procedure::Step &step = procedure.steps[at++];
    if (step.kind == Procedure::Step::Kind::Jump) {
      at = step.target;
      continue;
    }
    std::optional<int64_t> value = evaluate(step.expression, local);
    if (!value)
      return std::nullopt;
    switch (step.kind) {
    case Procedure::Step::Kind::Assign:
      locals[step.local] = *value;
      break;
    case Procedure::Step::Kind::JumpUnless:
      if (*value == 0)
        at = step.target;
      break;
    case Procedure::Step::Kind::Return:
      return value;
    case Procedure::Step::Kind::Jump:
      break;
    }
  }
  return std::nullopt;
}

// C++ semantics where they are defined; unsigned wrap-around for overflow
// (two's complement), which is what the host program computes on 64 bits.
std::optional<int64_t> apply(Formula::Op op, int64_t a, int64_t b) {
  auto wrap = [](uint64_t value) { return int64_t(value); };
  switch (op) {
  case Formula::Op::Add:
    return wrap(uint64_t(a) + uint64_t(b));
  case Formula::Op::Sub:
    return wrap(uint64_t(a) - uint64_t(b));
  case Formula::Op::Mul:
    return wrap(uint64_t(a) * uint64_t(b));
  case Formula::Op::Div:
    if (b == 0 || (a == INT64_MIN && b == -1))
      return std::nullopt;
    return a / b;
  case Formula::Op::Rem:
    if (b == 0 || (a == INT64_MIN && b == -1))
      return std::nullopt;
    return a % b;
  case Formula::Op::Shl:
    if (b < 0 || b >= 64)
      return std::nullopt;
    return wrap(uint64_t(a) << b);
  case Formula::Op::Shr:
    if (b < 0 || b >= 64)
      return std::nullopt;
    return a >> b;
  case Formula::Op::And:
    return a & b;
  case Formula::Op::Or:
    return a | b;
  case Formula::Op::Xor:
    return a ^ b;
  case Formula::Op::Min:
    return std::min(a, b);
  case Formula::Op::Max:
    return std::max(a, b);
  case Formula::Op::Lt:
    return int64_t(a < b);
  case Formula::Op::Le:
    return int64_t(a <= b);
  case Formula::Op::Gt:
    return int64_t(a > b);
  case Formula::Op::Ge:
    return int64_t(a >= b);
  case Formula::Op::Eq:
    return int64_t(a == b);
  case Formula::Op::Ne:
    return int64_t(a != b);
  case Formula::Op::LogicalAnd:
    return int64_t(a != 0 && b != 0);
  case Formula::Op::LogicalOr:
    return int64_t(a != 0 || b != 0);
  default:
    return std::nullopt;
  }
}

} // namespace

Formula Formula::constant(int64_t value) {
  Formula formula;
  formula.nodes.push_back(Node{Op::Constant, value, 0, 0, 0});
  return formula;
}

Formula Formula::argument(uint32_t index) {
  Formula formula;
  formula.nodes.push_back(Node{Op::Argument, 0, index, 0, 0});
  return formula;
}

Formula Formula::unary(Op op, const Formula &operand) {
  Formula formula;
  uint32_t root = appendNodes(formula, operand);
  formula.nodes.push_back(Node{op, 0, 0, root, root});
  return formula;
}

Formula Formula::binary(Op op, const Formula &lhs, const Formula &rhs) {
  Formula formula;
  uint32_t left = appendNodes(formula, lhs);
  uint32_t right = appendNodes(formula, rhs);
  formula.nodes.push_back(Node{op, 0, 0, left, right});
  return formula;
}

Formula Formula::call(std::shared_ptr<const Procedure> procedure,
                      const std::vector<Formula> &operands) {
  Formula formula;
  uint32_t left = appendNodes(formula, operands.at(0));
  uint32_t right = operands.size() > 1 ? appendNodes(formula, operands[1]) : left;
  formula.nodes.push_back(
      Node{Op::Call, int64_t(operands.size()), uint32_t(formula.procedures.size()), left, right});
  formula.procedures.push_back(std::move(procedure));
  return formula;
}

std::optional<Formula>
substitute(const Formula &formula,
           const std::function<std::optional<Formula>(uint32_t index)> &leaf) {
  Formula result;
  std::vector<uint32_t> at(formula.nodes.size(), 0);
  std::vector<std::optional<uint32_t>> procedureAt(formula.procedures.size());
  for (size_t i = 0; i < formula.nodes.size(); ++i) {
    Formula::Node node = formula.nodes[i];
    if (node.op == Formula::Op::Argument) {
      std::optional<Formula> value = leaf(node.argument);
      if (!value || value->nodes.empty())
        return std::nullopt;
      at[i] = appendNodes(result, *value);
      continue;
    }
    if (node.op != Formula::Op::Constant) {
      node.lhs = at[node.lhs];
      node.rhs = at[node.rhs];
    }
    if (node.op == Formula::Op::Call) {
      std::optional<uint32_t> &moved = procedureAt[node.argument];
      if (!moved) {
        moved = uint32_t(result.procedures.size());
        result.procedures.push_back(formula.procedures[node.argument]);
      }
      node.argument = *moved;
    }
    at[i] = uint32_t(result.nodes.size());
    result.nodes.push_back(node);
  }
  return result;
}

std::vector<uint32_t> Formula::arguments() const {
  std::vector<uint32_t> read;
  for (const Node &node : nodes)
    if (node.op == Op::Argument)
      read.push_back(node.argument);
  std::sort(read.begin(), read.end());
  read.erase(std::unique(read.begin(), read.end()), read.end());
  return read;
}

std::vector<Formula> Formula::conjuncts() const {
  if (nodes.empty())
    return {};
  // The subtree under `root`, its nodes renumbered in their order.
  auto subtree = [&](uint32_t root) {
    std::vector<bool> used(root + 1, false);
    used[root] = true;
    for (uint32_t i = root + 1; i-- > 0;)
      if (used[i] && nodes[i].op != Op::Constant && nodes[i].op != Op::Argument) {
        used[nodes[i].lhs] = true;
        used[nodes[i].rhs] = true;
      }
    Formula part;
    part.procedures = procedures;
    std::vector<uint32_t> renumbered(root + 1, 0);
    for (uint32_t i = 0; i <= root; ++i)
      if (used[i]) {
        Node node = nodes[i];
        if (node.op != Op::Constant && node.op != Op::Argument) {
          node.lhs = renumbered[node.lhs];
          node.rhs = renumbered[node.rhs];
        }
        renumbered[i] = uint32_t(part.nodes.size());
        part.nodes.push_back(node);
      }
    return part;
  };
  std::vector<Formula> parts;
  std::vector<uint32_t> pending = {uint32_t(nodes.size() - 1)};
  while (!pending.empty()) {
    uint32_t root = pending.back();
    pending.pop_back();
    if (nodes[root].op == Op::LogicalAnd) {
      pending.push_back(nodes[root].rhs);
      pending.push_back(nodes[root].lhs);
    } else {
      parts.push_back(subtree(root));
    }
  }
  return parts;
}

std::optional<int64_t> evaluate(const Formula &formula, const ArgumentValues &arguments) {
  if (formula.nodes.empty())
    return std::nullopt;
  std::vector<int64_t> values(formula.nodes.size());
  for (size_t i = 0; i < formula.nodes.size(); ++i) {
    const Formula::Node &node = formula.nodes[i];
    std::optional<int64_t> value;
    switch (node.op) {
    case Formula::Op::Constant:
      value = node.value;
      break;
    case Formula::Op::Argument:
      value = arguments ? arguments(node.argument) : std::nullopt;
      break;
    case Formula::Op::Neg:
      value = int64_t(0 - uint64_t(values[node.lhs]));
      break;
    case Formula::Op::Not:
      value = ~values[node.lhs];
      break;
    case Formula::Op::LogicalNot:
      value = int64_t(values[node.lhs] == 0);
      break;
    case Formula::Op::Call: {
      std::vector<int64_t> operands = {values[node.lhs]};
      if (node.value > 1)
        operands.push_back(values[node.rhs]);
      if (node.argument < formula.procedures.size() && formula.procedures[node.argument])
        value = run(*formula.procedures[node.argument], operands);
      break;
    }
    default:
      value = apply(node.op, values[node.lhs], values[node.rhs]);
      break;
    }
    if (!value)
      return std::nullopt;
    values[i] = *value;
  }
  return values.back();
}

SiteValue SiteValue::unknown(std::string text) {
  SiteValue value;
  value.text = std::move(text);
  return value;
}

SiteValue SiteValue::ofInteger(int64_t integer, std::string text) {
  SiteValue value;
  value.kind = Kind::Constant;
  value.integer = integer;
  value.real = double(integer);
  value.text = std::move(text);
  return value;
}

SiteValue SiteValue::ofReal(double real, std::string text) {
  SiteValue value;
  value.kind = Kind::Constant;
  value.isFloat = true;
  value.real = real;
  value.text = std::move(text);
  return value;
}

SiteValue SiteValue::ofFormula(host::Formula formula, std::string text) {
  SiteValue value;
  value.kind = Kind::Formula;
  value.formula = std::move(formula);
  value.text = std::move(text);
  return value;
}

std::string deviceSymbol(const std::string &hostSymbol) {
  static const std::string prefix = "__device_stub__";
  size_t at = hostSymbol.find(prefix);
  if (at == std::string::npos)
    return hostSymbol;
  size_t digits = at;
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(hostSymbol[digits - 1])))
    --digits;
  if (digits == at)
    return hostSymbol.substr(0, at) + hostSymbol.substr(at + prefix.size());
  size_t length = std::stoul(hostSymbol.substr(digits, at - digits));
  return hostSymbol.substr(0, digits) + std::to_string(length - prefix.size()) +
         hostSymbol.substr(at + prefix.size());
}

std::string locationText(const CallSite &site) {
  return site.file + ":" + std::to_string(site.line);
}

std::string describe(const SiteValue &value) {
  if (value.isConstant()) {
    if (!value.isFloat)
      return std::to_string(value.integer);
    char text[64];
    std::snprintf(text, sizeof text, "%.9g", value.real);
    return text;
  }
  if (value.isFormula())
    return value.text.empty() ? formulaText(value.formula) : value.text;
  return "?";
}

std::string formulaText(const Formula &formula) {
  static const char *const symbols[] = {"",   "",   "-",  "~",  "+",  "-",  "*",  "/",
                                        "%",  "<<", ">>", "&",  "|",  "^",  "min", "max",
                                        "<",  "<=", ">",  ">=", "==", "!=", "&&", "||", "!"};
  static_assert(std::size(symbols) == size_t(Formula::Op::LogicalNot) + 1, "one per Op but Call");
  std::vector<std::string> texts;
  for (const Formula::Node &node : formula.nodes) {
    if (node.op == Formula::Op::Call) {
      std::string name =
          node.argument < formula.procedures.size() && formula.procedures[node.argument]
              ? formula.procedures[node.argument]->name
              : "?";
      texts.push_back(name + "(" + texts[node.lhs] +
                      (node.value > 1 ? ", " + texts[node.rhs] : "") + ")");
      continue;
    }
    const char *symbol = symbols[size_t(node.op)];
    switch (node.op) {
    case Formula::Op::Constant:
      texts.push_back(std::to_string(node.value));
      break;
    case Formula::Op::Argument:
      texts.push_back("argument " + std::to_string(node.argument + 1));
      break;
    case Formula::Op::Neg:
    case Formula::Op::Not:
    case Formula::Op::LogicalNot:
      texts.push_back(std::string(symbol) + "(" + texts[node.lhs] + ")");
      break;
    case Formula::Op::Min:
    case Formula::Op::Max:
      texts.push_back(std::string(symbol) + "(" + texts[node.lhs] + ", " + texts[node.rhs] + ")");
      break;
    default:
      texts.push_back("(" + texts[node.lhs] + " " + symbol + " " + texts[node.rhs] + ")");
      break;
    }
  }
  return texts.empty() ? "?" : texts.back();
}

std::string describeDims(const SiteValue (&dims)[3]) {
  return describe(dims[0]) + ", " + describe(dims[1]) + ", " + describe(dims[2]);
}

std::string describe(const CallSite &site) {
  std::string text = site.kernel;
  if (!site.templateArguments.empty()) {
    text += "<";
    for (size_t i = 0; i < site.templateArguments.size(); ++i)
      text += (i ? ", " : "") + site.templateArguments[i];
    text += ">";
  }
  text += " grid (" + describeDims(site.grid) + ") block (" + describeDims(site.block) + ")";
  if (!site.sharedBytes.isConstant() || site.sharedBytes.integer != 0)
    text += " shared " + describe(site.sharedBytes);
  text += " args (";
  for (size_t i = 0; i < site.arguments.size(); ++i)
    text += (i ? ", " : "") + describe(site.arguments[i]);
  return text + ")";
}

} // namespace simulee::host
