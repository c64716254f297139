// Formulas of call sites: building and evaluating them with C++'s integer
// semantics.
#include "host/CallSite.h"

#include <gtest/gtest.h>

using namespace simulee::host;

namespace {

using Op = Formula::Op;

// (n + 255) / 256 with n argument 1.
Formula gridOf256() {
  return Formula::binary(Op::Div,
                         Formula::binary(Op::Add, Formula::argument(1), Formula::constant(255)),
                         Formula::constant(256));
}

ArgumentValues argument1Is(int64_t value) {
  return [value](uint32_t index) -> std::optional<int64_t> {
    if (index == 1)
      return value;
    return std::nullopt;
  };
}

TEST(Formula, GridFollowsTheArgument) {
  Formula grid = gridOf256();
  EXPECT_EQ(evaluate(grid, argument1Is(1)), 1);
  EXPECT_EQ(evaluate(grid, argument1Is(256)), 1);
  EXPECT_EQ(evaluate(grid, argument1Is(257)), 2);
  EXPECT_EQ(evaluate(grid, argument1Is(1000)), 4);
  EXPECT_EQ(grid.arguments(), std::vector<uint32_t>{1});
}

TEST(Formula, MissingArgumentHasNoValue) {
  EXPECT_EQ(evaluate(gridOf256(), [](uint32_t) { return std::nullopt; }), std::nullopt);
  EXPECT_EQ(evaluate(Formula::argument(0), argument1Is(5)), std::nullopt);
}

TEST(Formula, DivisionTruncatesTowardZeroAndByZeroHasNoValue) {
  Formula half = Formula::binary(Op::Div, Formula::argument(1), Formula::constant(2));
  EXPECT_EQ(evaluate(half, argument1Is(-7)), -3);
  Formula rem = Formula::binary(Op::Rem, Formula::argument(1), Formula::constant(4));
  EXPECT_EQ(evaluate(rem, argument1Is(-7)), -3);
  Formula byArgument = Formula::binary(Op::Div, Formula::constant(8), Formula::argument(1));
  EXPECT_EQ(evaluate(byArgument, argument1Is(0)), std::nullopt);
}

TEST(Formula, ShiftsBitsAndUnaryOperators) {
  Formula shifted = Formula::binary(Op::Shl, Formula::constant(1), Formula::argument(1));
  EXPECT_EQ(evaluate(shifted, argument1Is(5)), 32);
  EXPECT_EQ(evaluate(shifted, argument1Is(64)), std::nullopt);
  EXPECT_EQ(evaluate(shifted, argument1Is(-1)), std::nullopt);
  Formula masked = Formula::binary(
      Op::Or, Formula::binary(Op::And, Formula::argument(1), Formula::constant(0xf0)),
      Formula::binary(Op::Xor, Formula::constant(1), Formula::constant(3)));
  EXPECT_EQ(evaluate(masked, argument1Is(0x3c)), 0x32);
  EXPECT_EQ(evaluate(Formula::unary(Op::Neg, Formula::argument(1)), argument1Is(9)), -9);
  EXPECT_EQ(evaluate(Formula::unary(Op::Not, Formula::constant(0)), {}), -1);
  Formula right = Formula::binary(Op::Shr, Formula::argument(1), Formula::constant(2));
  EXPECT_EQ(evaluate(right, argument1Is(-8)), -2);
}

TEST(Formula, MinAndMax) {
  Formula capped =
      Formula::binary(Op::Max, Formula::constant(1),
                      Formula::binary(Op::Min, Formula::argument(1), Formula::constant(1024)));
  EXPECT_EQ(evaluate(capped, argument1Is(5000)), 1024);
  EXPECT_EQ(evaluate(capped, argument1Is(77)), 77);
  EXPECT_EQ(evaluate(capped, argument1Is(-3)), 1);
}

TEST(Formula, ArgumentsAreListedOnce) {
  Formula both =
      Formula::binary(Op::Mul, Formula::argument(3),
                      Formula::binary(Op::Sub, Formula::argument(0), Formula::argument(3)));
  EXPECT_EQ(both.arguments(), (std::vector<uint32_t>{0, 3}));
  EXPECT_EQ(evaluate(both, [](uint32_t i) -> std::optional<int64_t> { return i == 0 ? 10 : 4; }),
            24);
}

TEST(Formula, AConditionSplitsAtItsOutermostAnds) {
  // m >= 128 && (n >= 128 && k / (m - 128) > 0): three parts, each alone.
  Formula m = Formula::argument(0), n = Formula::argument(1), k = Formula::argument(2);
  Formula wide = Formula::binary(Op::Ge, m, Formula::constant(128));
  Formula tall = Formula::binary(Op::Ge, n, Formula::constant(128));
  Formula ratio = Formula::binary(
      Op::Gt, Formula::binary(Op::Div, k, Formula::binary(Op::Sub, m, Formula::constant(128))),
      Formula::constant(0));
  Formula all = Formula::binary(Op::LogicalAnd, wide, Formula::binary(Op::LogicalAnd, tall, ratio));
  std::vector<Formula> parts = all.conjuncts();
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0].arguments(), std::vector<uint32_t>{0});
  EXPECT_EQ(parts[1].arguments(), std::vector<uint32_t>{1});
  EXPECT_EQ(parts[2].arguments(), (std::vector<uint32_t>{0, 2}));
  auto values = [](int64_t mValue, int64_t nValue) {
    return [=](uint32_t i) -> std::optional<int64_t> {
      return i == 0 ? mValue : i == 1 ? nValue : 1000;
    };
  };
  // Each part is its own condition: n's holds where m's cannot be evaluated.
  EXPECT_EQ(evaluate(parts[1], values(128, 200)), 1);
  EXPECT_EQ(evaluate(parts[0], values(100, 200)), 0);
  EXPECT_FALSE(evaluate(parts[2], values(128, 200))); // a division by zero
  EXPECT_EQ(evaluate(parts[2], values(129, 200)), 1);
  // A condition with no && is itself.
  ASSERT_EQ(wide.conjuncts().size(), 1u);
  EXPECT_EQ(wide.conjuncts()[0].nodes.size(), wide.nodes.size());
}

// sum(n): s = 0; i = 1; while (i <= n) { s += i; ++i; } return s. Locals:
// n 0, s 1, i 2.
std::shared_ptr<Procedure> sumTo() {
  using Step = Procedure::Step;
  auto procedure = std::make_shared<Procedure>();
  procedure->name = "sum";
  procedure->parameters = 1;
  procedure->locals = 3;
  auto local = [](uint32_t i) { return Formula::argument(i); };
  procedure->steps = {
      {Step::Kind::Assign, 1, 0, Formula::constant(0)},
      {Step::Kind::Assign, 2, 0, Formula::constant(1)},
      {Step::Kind::JumpUnless, 0, 6, Formula::binary(Op::Le, local(2), local(0))},
      {Step::Kind::Assign, 1, 0, Formula::binary(Op::Add, local(1), local(2))},
      {Step::Kind::Assign, 2, 0, Formula::binary(Op::Add, local(2), Formula::constant(1))},
      {Step::Kind::Jump, 0, 2, Formula::constant(0)},
      {Step::Kind::Return, 0, 0, local(1)},
  };
  return procedure;
}

TEST(Formula, ProceduresRunOnTheirOperandsAndKeepTheirPlaceWhenCombined) {
  Formula sum = Formula::call(sumTo(), {Formula::argument(1)});
  EXPECT_EQ(evaluate(sum, argument1Is(4)), 10);
  EXPECT_EQ(evaluate(sum, argument1Is(0)), 0);
  EXPECT_EQ(formulaText(sum), "sum(argument 2)");
  // A second procedure, after the first's in the combined formula.
  auto twice = std::make_shared<Procedure>();
  twice->name = "twice";
  twice->parameters = twice->locals = 1;
  twice->steps = {{Procedure::Step::Kind::Return, 0, 0,
                   Formula::binary(Op::Mul, Formula::argument(0), Formula::constant(2))}};
  Formula both = Formula::binary(Op::Add, sum, Formula::call(twice, {Formula::argument(1)}));
  EXPECT_EQ(evaluate(both, argument1Is(4)), 18);
  std::vector<Formula> parts =
      Formula::binary(Op::LogicalAnd, Formula::binary(Op::Gt, both, Formula::constant(0)), sum)
          .conjuncts();
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(evaluate(parts[0], argument1Is(4)), 1);
  EXPECT_EQ(evaluate(parts[1], argument1Is(4)), 10);
  // Past its step budget: no value.
  auto forever = std::make_shared<Procedure>();
  forever->parameters = forever->locals = 1;
  forever->steps = {{Procedure::Step::Kind::Jump, 0, 0, Formula::constant(0)}};
  EXPECT_EQ(evaluate(Formula::call(forever, {Formula::argument(1)}), argument1Is(1)), std::nullopt);
}

TEST(SiteValue, DescribesConstantsFormulasAndUnknowns) {
  EXPECT_EQ(describe(SiteValue::ofInteger(256, "THREADS")), "256");
  EXPECT_EQ(describe(SiteValue::ofReal(2.5, "2.5f")), "2.5");
  EXPECT_EQ(describe(SiteValue::ofFormula(gridOf256(), "(n + 255) / 256")), "(n + 255) / 256");
  EXPECT_EQ(describe(SiteValue::unknown("rows")), "?");
}

} // namespace
