#include "host/CallSiteReader.h"
#include "host/HostIrLaunches.h"

#include "ir/CudaInstallation.h"
#include "ir/Loader.h"
#include "ir/WrapperPch.h"
#include "ir/IncludeClosure.h"
#include "ir/LaunchSyntax.h"
#include "support/FileText.h"
#include "support/SimulatedDevice.h"

#include <clang-c/Index.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

namespace simulee::host {
namespace {

std::string take(CXString text) {
  const char *chars = clang_getCString(text);
  std::string result = chars ? chars : "";
  clang_disposeString(text);
  return result;
}

std::vector<CXCursor> childrenOf(CXCursor cursor) {
  std::vector<CXCursor> children;
  clang_visitChildren(
      cursor,
      [](CXCursor child, CXCursor, CXClientData data) {
        static_cast<std::vector<CXCursor> *>(data)->push_back(child);
        return CXChildVisit_Continue;
      },
      &children);
  return children;
}

// Calls `visit` on every cursor below `root`, depth first, in source order.
template <typename Visit> void walk(CXCursor root, Visit &&visit) {
  for (CXCursor child : childrenOf(root)) {
    visit(child);
    walk(child, visit);
  }
}

CXCursorKind kindOf(CXCursor cursor) { return clang_getCursorKind(cursor); }
std::string usrOf(CXCursor cursor) { return take(clang_getCursorUSR(cursor)); }
std::string spellingOf(CXCursor cursor) { return take(clang_getCursorSpelling(cursor)); }

// The parameters a function (or a function template, or a lambda) declares.
std::vector<CXCursor> parametersOf(CXCursor function) {
  std::vector<CXCursor> parameters;
  for (CXCursor child : childrenOf(function))
    if (kindOf(child) == CXCursor_ParmDecl)
      parameters.push_back(child);
  return parameters;
}

// Whether a function is a kernel (`__global__`).
bool isKernel(CXCursor function) {
  std::vector<CXCursor> attributes = childrenOf(function);
  return std::any_of(attributes.begin(), attributes.end(),
                     [](CXCursor c) { return kindOf(c) == CXCursor_CUDAGlobalAttr; });
}

// `cursor` with every wrapper `isWrapper` accepts taken off: the last
// expression among each one's children.
template <class IsWrapper> CXCursor strip(CXCursor cursor, IsWrapper isWrapper) {
  for (;;) {
    if (!isWrapper(kindOf(cursor)))
      return cursor;
    CXCursor inner = clang_getNullCursor();
    for (CXCursor child : childrenOf(cursor))
      if (clang_isExpression(kindOf(child)))
        inner = child;
    if (clang_Cursor_isNull(inner))
      return cursor;
    cursor = inner;
  }
}

bool isValueWrapper(CXCursorKind kind) {
  return kind == CXCursor_UnexposedExpr || kind == CXCursor_ParenExpr ||
         kind == CXCursor_CStyleCastExpr || kind == CXCursor_CXXStaticCastExpr ||
         kind == CXCursor_CXXFunctionalCastExpr;
}

// Casts, parentheses and clang's implicit nodes (UnexposedExpr) around the
// expression that matters.
CXCursor stripWrappers(CXCursor cursor) { return strip(cursor, isValueWrapper); }

// stripWrappers, and reinterpret_cast and const_cast too: for an expression
// that is a pointer or a pointer's address (`cudaMalloc(reinterpret_cast<void
// **>(&p), bytes)`, as NVIDIA's samples write it), which those casts keep.
CXCursor stripPointerWrappers(CXCursor cursor) {
  return strip(cursor, [](CXCursorKind kind) {
    return isValueWrapper(kind) || kind == CXCursor_CXXReinterpretCastExpr ||
           kind == CXCursor_CXXConstCastExpr;
  });
}

bool isDim3(CXType type) {
  std::string spelling = take(clang_getTypeSpelling(clang_getCanonicalType(type)));
  return spelling.find("dim3") != std::string::npos;
}

bool isDeviceProp(CXType type);

// A struct or class of the program's (not dim3, not cudaDeviceProp): its
// members may be filled one by one before a launch passes it by value.
bool isStruct(CXType type) {
  return clang_getCanonicalType(type).kind == CXType_Record && !isDim3(type) &&
         !isDeviceProp(type);
}

// The fields of a struct type, in declaration order.
std::vector<CXCursor> fieldsOf(CXType type) {
  std::vector<CXCursor> fields;
  clang_Type_visitFields(
      clang_getCanonicalType(type),
      [](CXCursor field, CXClientData data) {
        static_cast<std::vector<CXCursor> *>(data)->push_back(field);
        return CXVisit_Continue;
      },
      &fields);
  return fields;
}

// A member of a struct type that is no struct itself, by its path
// ("dims.width"): what a struct variable's members are filled with.
struct FieldPath {
  std::string path;
  CXType type;
};
void leafFieldsOf(CXType type, const std::string &prefix, std::vector<FieldPath> &fields,
                  int depth = 0) {
  if (depth > 4)
    return;
  for (CXCursor field : fieldsOf(type)) {
    CXType fieldType = clang_getCursorType(field);
    std::string path = prefix + spellingOf(field);
    if (isStruct(fieldType))
      leafFieldsOf(fieldType, path + ".", fields, depth + 1);
    else
      fields.push_back({path, fieldType});
  }
}

bool isIntegerOrEnum(CXTypeKind kind) {
  return (kind >= CXType_Bool && kind <= CXType_Int128) || kind == CXType_Enum;
}

// Whether a canonical integer or enum type is signed.
bool isSignedInteger(CXType type) {
  switch (type.kind) {
  case CXType_Char_S: case CXType_SChar: case CXType_Short: case CXType_Int:
  case CXType_Long: case CXType_LongLong: case CXType_Int128:
    return true;
  case CXType_Enum:
    return isSignedInteger(clang_getCanonicalType(
        clang_getEnumDeclIntegerType(clang_getTypeDeclaration(type))));
  default:
    return false;
  }
}

// Whether a write of member `written` sets member `path` (itself, or a
// struct holding it).
bool covers(const std::string &written, const std::string &path) {
  return written == path || path.rfind(written + ".", 0) == 0;
}

bool isAllocator(const std::string &callee) {
  return callee == "cudaMalloc" || callee == "cudaMallocManaged" || callee == "cudaMallocHost" ||
         callee == "cudaHostAlloc" || callee == "cudaMallocAsync";
}

// cudaDeviceProp, or a pointer or reference to one (`prop->warpSize`).
bool isDeviceProp(CXType type) {
  if (type.kind == CXType_Pointer || type.kind == CXType_LValueReference)
    type = clang_getPointeeType(type);
  std::string name = take(clang_getTypeSpelling(clang_getCanonicalType(type)));
  return name == "cudaDeviceProp" || name == "struct cudaDeviceProp" ||
         name == "const cudaDeviceProp" || name == "const struct cudaDeviceProp";
}

std::optional<Formula::Op> binaryOp(CXBinaryOperatorKind kind) {
  switch (kind) {
  case CXBinaryOperator_Add:
    return Formula::Op::Add;
  case CXBinaryOperator_Sub:
    return Formula::Op::Sub;
  case CXBinaryOperator_Mul:
    return Formula::Op::Mul;
  case CXBinaryOperator_Div:
    return Formula::Op::Div;
  case CXBinaryOperator_Rem:
    return Formula::Op::Rem;
  case CXBinaryOperator_Shl:
    return Formula::Op::Shl;
  case CXBinaryOperator_Shr:
    return Formula::Op::Shr;
  case CXBinaryOperator_And:
    return Formula::Op::And;
  case CXBinaryOperator_Or:
    return Formula::Op::Or;
  case CXBinaryOperator_Xor:
    return Formula::Op::Xor;
  case CXBinaryOperator_LT:
    return Formula::Op::Lt;
  case CXBinaryOperator_LE:
    return Formula::Op::Le;
  case CXBinaryOperator_GT:
    return Formula::Op::Gt;
  case CXBinaryOperator_GE:
    return Formula::Op::Ge;
  case CXBinaryOperator_EQ:
    return Formula::Op::Eq;
  case CXBinaryOperator_NE:
    return Formula::Op::Ne;
  case CXBinaryOperator_LAnd:
    return Formula::Op::LogicalAnd;
  case CXBinaryOperator_LOr:
    return Formula::Op::LogicalOr;
  default:
    return std::nullopt;
  }
}

// The value of a formula that reads no argument (a constant, argc), if any.
std::optional<int64_t> constantValue(const Formula &formula) {
  return evaluate(formula, [](uint32_t) -> std::optional<int64_t> { return std::nullopt; });
}

// The operator `x op= y` applies (`*=`: Mul), for those a Formula has.
std::optional<Formula::Op> compoundOp(CXBinaryOperatorKind kind) {
  switch (kind) {
  case CXBinaryOperator_MulAssign:
    return Formula::Op::Mul;
  case CXBinaryOperator_DivAssign:
    return Formula::Op::Div;
  case CXBinaryOperator_RemAssign:
    return Formula::Op::Rem;
  case CXBinaryOperator_AddAssign:
    return Formula::Op::Add;
  case CXBinaryOperator_SubAssign:
    return Formula::Op::Sub;
  case CXBinaryOperator_ShlAssign:
    return Formula::Op::Shl;
  case CXBinaryOperator_ShrAssign:
    return Formula::Op::Shr;
  case CXBinaryOperator_AndAssign:
    return Formula::Op::And;
  case CXBinaryOperator_XorAssign:
    return Formula::Op::Xor;
  case CXBinaryOperator_OrAssign:
    return Formula::Op::Or;
  default:
    return std::nullopt;
  }
}

bool isAssignment(CXBinaryOperatorKind kind) {
  return kind >= CXBinaryOperator_Assign && kind <= CXBinaryOperator_OrAssign;
}

// Reads one translation unit.
class Reader {
public:
  // A pointer a call passes that points at the start of an allocation: its
  // size, as written, and where it was allocated.
  struct PassedAllocation {
    int64_t bytes;     // a constant size
    std::string text;  // "n * sizeof(float)"
    std::string where; // "cudaMalloc at main.cu:40"
    std::string id;    // Allocation::id
    // A size that is no constant: a formula over the leaves of the call's
    // conditions (LauncherCall::conditionLeaves); `bytes` is then unused.
    std::optional<Formula> sized;
    auto key() const {
      return std::tuple(bytes, text, where, id, sized ? formulaText(*sized) : std::string());
    }
    bool operator<(const PassedAllocation &other) const { return key() < other.key(); }
    bool operator==(const PassedAllocation &other) const { return key() == other.key(); }
  };
  // A dim3 a call passes (`run(dim3(n / 256), dim3(256), ...)`): each axis
  // a formula over the leaves of the call's conditions
  // (LauncherCall::conditionLeaves), where it has one.
  struct PassedDims {
    std::array<std::optional<Formula>, 3> axes;
    std::array<std::string, 3> texts; // each axis as written: "(n + 255) / 256"
    auto key() const {
      std::array<std::string, 3> formulas;
      for (size_t i = 0; i < 3; ++i)
        formulas[i] = axes[i] ? formulaText(*axes[i]) : "?";
      return std::tuple(formulas, texts);
    }
    bool operator<(const PassedDims &other) const { return key() < other.key(); }
    bool operator==(const PassedDims &other) const { return key() == other.key(); }
  };
  // What holds where a call is made (conditionsAroundCall): its conditions
  // over the leaves they read, and the allocations and dim3s it passes whose
  // sizes and axes are formulas over those leaves.
  struct CallConditions {
    std::vector<CallSite::Constraint> constraints;
    std::vector<std::string> leaves; // LauncherCall::conditionLeaves
    // By parameter: an allocation passed whose size is a formula over those
    // leaves (`cudaMalloc(&d, n * sizeof(float)); run(d, n);`).
    std::vector<std::optional<PassedAllocation>> allocations;
    // By parameter: a dim3 passed, its axes over those leaves.
    std::vector<std::optional<PassedDims>> dims;
    // By parameter: an integer passed that is a formula over those leaves
    // (`run(d, 2 * n)`), where it is neither a constant nor a leaf itself.
    std::vector<std::optional<Formula>> values;
    // What a launch that reads a leaf searches for it (LauncherCall::
    // leafVariables).
    std::vector<CallSite::Variable> leafVariables;
    // A method's call on an object its constructor call made (`Solver
    // s(n); s.run();`): the integer fields the constructor sets and its
    // parameters, by USR, as formulas over those leaves.
    std::map<std::string, Formula> members;
  };
  // One call of a function of the program's (a launcher): what it passes.
  struct LauncherCall {
    std::vector<std::string> templateArguments;
    std::vector<std::optional<int64_t>> values; // by parameter
    // By parameter: the value is a constant expression where the call is
    // written (`run(d, 0)`), or a parameter bound to one, never a value the
    // program takes without command-line arguments (`run(d, method)` with
    // `method = argc > 1 ? atoi(argv[1]) : 0`).
    std::vector<bool> literal;
    std::vector<std::optional<double>> reals;                 // by parameter: floats
    std::vector<std::optional<PassedAllocation>> allocations; // by parameter
    std::vector<std::optional<PassedDims>> dims;              // by parameter: dim3s
    // By parameter: an integer the call computes from the leaves of its
    // conditions (`run(d, 2 * n)`, over conditionLeaves), where `values`
    // has no constant.
    std::vector<std::optional<Formula>> formulas;
    // By parameter: the USR of the kernel a function-pointer argument
    // names (`timed(scale, d, n)`), or empty.
    std::vector<std::string> kernels;
    // By parameter: the USR of a function of the program's an argument
    // names (`pass(d, n, launchScale)`, a launcher handed to what calls it),
    // or empty.
    std::vector<std::string> functions;
    // A method called on an object: its integer fields the constructor
    // set and the constructor's parameters, by USR, over conditionLeaves
    // (CallConditions::members).
    std::map<std::string, Formula> members;
    // By parameter: the USR of the array of kernel arguments an argument
    // names (`void *args[] = {&d, &n}; launch(k, grid, block, args)`, for a
    // cudaLaunchKernel in the launcher), or empty.
    std::vector<std::string> argumentArrays;
    // The conditions that hold where the call is made (the `if`s and loops
    // around it, the asserts and early exits before it, the guards of a
    // function whose struct it passes), over the leaves conditionLeaves
    // names by index.
    std::vector<CallSite::Constraint> conditions;
    // What each leaf of the conditions is: "#2" the called function's third
    // parameter, "#2.threads" a member of it, else a variable of the
    // caller's by its key (a global's or a lambda's captured variable's USR,
    // "USR.path" for a member), which the launch may read as it is.
    std::vector<std::string> conditionLeaves;
    // Leaves a formula reads (`formulas`, not a parameter as it is): the
    // variable a launch searches for each where it reads none of its own,
    // named, sized and signed as the caller's; `index` is the leaf's.
    std::vector<CallSite::Variable> leafVariables;
    // The conditions, formulas and leaf variables as text: what orders calls
    // besides the plain vectors.
    std::vector<std::string> formulaTexts() const {
      std::vector<std::string> texts;
      for (const CallSite::Constraint &condition : conditions)
        texts.push_back(condition.text);
      for (const std::optional<Formula> &formula : formulas)
        texts.push_back(formula ? formulaText(*formula) : "");
      for (const CallSite::Variable &leaf : leafVariables)
        texts.push_back(leaf.name + "#" + std::to_string(leaf.index) + ":" +
                        std::to_string(leaf.bits) + (leaf.isSigned ? "s" : "u"));
      for (const auto &[field, formula] : members)
        texts.push_back(field + "=" + formulaText(formula));
      return texts;
    }
    bool operator<(const LauncherCall &other) const {
      return std::tuple(std::tie(templateArguments, values, literal, reals, allocations, dims,
                                 kernels, functions, argumentArrays, conditionLeaves),
                        formulaTexts()) <
             std::tuple(std::tie(other.templateArguments, other.values, other.literal, other.reals,
                                 other.allocations, other.dims, other.kernels, other.functions,
                                 other.argumentArrays, other.conditionLeaves),
                        other.formulaTexts());
    }
  };
  // `instantiations`: the launches read from the compiled host code, whose
  // kernels are the instantiations a launch naming a kernel template by a
  // dependent argument (`k<size.value><<<...>>>`) makes.
  // `external`: calls made in the program's other files (externalCalls of
  // their readers) of functions this file defines.
  explicit Reader(CXTranslationUnit unit, std::vector<CallSite> instantiations = {},
                  const std::map<std::string, std::set<LauncherCall>> *external = nullptr)
      : unit_(unit), instantiations_(std::move(instantiations)), external_(external) {}

  std::vector<CallSite> read() {
    // System headers (the C++ library, simulee's CUDA headers) launch
    // nothing and change none of the program's variables: not walked.
    std::vector<CXCursor> declarations;
    for (CXCursor declaration : childrenOf(clang_getTranslationUnitCursor(unit_)))
      if (!clang_Location_isInSystemHeader(clang_getCursorLocation(declaration)))
        declarations.push_back(declaration);
    for (CXCursor declaration : declarations) {
      walkModified(declaration, /*inInitList=*/false);
      walkHostCode(declaration);
    }
    addExternalCalls(declarations);
    propagateLauncherCalls();
    std::vector<CallSite> sites;
    for (CXCursor declaration : declarations)
      readLaunchesIn(declaration, sites);
    return sites;
  }

  // The calls this file makes of functions of the program's it declares
  // but does not define (a launcher defined in the kernel's file): what
  // another file's reader needs of them. Kernels and functions passed as
  // arguments are this file's cursors: left out.
  std::map<std::string, std::set<LauncherCall>> externalCalls() const {
    std::map<std::string, std::set<LauncherCall>> external;
    for (const auto &[usr, calls] : calls_) {
      auto definition = definitions_.find(usr);
      if (definition != definitions_.end() && !clang_Cursor_isNull(definition->second))
        continue;
      for (LauncherCall call : calls) {
        call.kernels.assign(call.kernels.size(), "");
        call.functions.assign(call.functions.size(), "");
        external[usr].insert(std::move(call));
      }
    }
    return external;
  }

  std::set<std::string> takeNamedFunctions() { return std::move(namedFunctions_); }
  // Kernels named only as inert arguments (see HostCode::measuredOnly);
  // before takeNamedFunctions.
  std::set<std::string> measuredOnly() const {
    std::set<std::string> kernels;
    for (CXCursor name : inertNames_)
      if (!namedFunctions_.count(spellingOf(name)))
        kernels.insert(spellingOf(name));
    return kernels;
  }
  bool definesMain() const { return definesMain_; }
  const std::set<std::string> &sharedOptIns() const { return sharedOptIns_; }

  // The kernels a launch through a pointer or a table may run, none of
  // whose stores any launch read can take (see HostCode::ruledOut).
  std::set<std::string> ruledOut() const {
    std::set<std::string> kernels;
    std::set_difference(choicesSeen_.begin(), choicesSeen_.end(), choicesTaken_.begin(),
                        choicesTaken_.end(), std::inserter(kernels, kernels.end()));
    return kernels;
  }

  // Whether some launch is written inside a template (a launcher, a class
  // template's member): its instantiations are known only where a call the
  // reader follows names them.
  bool launchesInTemplates() const { return launchInTemplate_; }

  // Whether some launch names a kernel template by arguments the reader
  // could not resolve, which the compiled code's instantiations would.
  bool readsDependentNames() const { return dependentNames_; }

private:
  // A function this file defines that it never calls itself is read once
  // per call the program's other files make of it.
  void addExternalCalls(const std::vector<CXCursor> &declarations) {
    if (!external_)
      return;
    std::function<void(CXCursor)> visit = [&](CXCursor cursor) {
      CXCursorKind kind = kindOf(cursor);
      if (kind == CXCursor_Namespace) {
        for (CXCursor child : childrenOf(cursor))
          visit(child);
        return;
      }
      if ((kind != CXCursor_FunctionDecl && kind != CXCursor_FunctionTemplate) ||
          !clang_isCursorDefinition(cursor))
        return;
      std::string usr = usrOf(cursor);
      auto calls = external_->find(usr);
      if (calls == external_->end() || calls_.count(usr))
        return;
      calls_[usr] = calls->second;
      definitions_[usr] = cursor;
    };
    for (CXCursor declaration : declarations)
      visit(declaration);
  }

  CXTranslationUnit unit_;
  std::vector<CallSite> instantiations_;
  const std::map<std::string, std::set<LauncherCall>> *external_ = nullptr;
  bool dependentNames_ = false;
  // While reading a launch for one instantiation: its dependent template
  // arguments, as written without spaces, with the instantiation's values.
  std::map<std::string, int64_t> boundTexts_;
  // Where the host code allocates device memory into a variable
  // (`cudaMalloc(&p, bytes)`), by the variable's USR: the size expression.
  struct Allocation {
    CXCursor bytes;
    std::string where; // "cudaMalloc at main.cu:40"
    // Which allocation it is: the pointer's key and the call's place, so
    // that two pointers passed into one allocation are known as such.
    std::string id;
  };
  std::map<std::string, std::vector<Allocation>> allocations_;
  // Variables assigned as a whole after their declaration (`p = q`): their
  // allocation may not be what they point to at a launch.
  std::set<std::string> reassigned_;
  // Host writes into device memory through a pointer variable, by its USR.
  struct DeviceWrite {
    unsigned offset; // in its file
    bool zeros;      // cudaMemset to 0
    std::string source; // a copy's: the host variable copied from, by USR
  };
  std::map<std::string, std::vector<DeviceWrite>> deviceWrites_;
  // A host array filled element by element in a loop (`for (int i = 0; i <
  // n; ++i) h[i] = i * 4;`), by the array variable's USR: the loop, the
  // value each element is set to, and where.
  struct FillLoop {
    CXCursor loop; // the for statement
    CXCursor value;
    unsigned offset; // in its file
  };
  std::map<std::string, std::vector<FillLoop>> fillLoops_;
  // A value a variable is known to hold where a statement runs: `d` is 0 in
  // `case 0:` of `switch (d)` and in the branch of `if (d == 0)`.
  using Binding = std::pair<std::string, int64_t>; // the variable's USR, its value
  // Everything assigned to a variable as a whole (`kernel = &copy;`), by
  // USR, with the values the assignment is written under.
  struct GuardedValue {
    CXCursor value;
    std::vector<Binding> guards;
  };
  std::map<std::string, std::vector<GuardedValue>> assignedValues_;
  // An element of an array assigned as a whole (`table[1] = &k;`,
  // `grid[0][1] = dim3(16, 4);`), by the array's USR: its indices (those
  // that are constants), the value, and the values the statement is written
  // under.
  struct ElementAssignment {
    std::vector<std::optional<int64_t>> indices;
    CXCursor value;
    std::vector<Binding> guards;
    unsigned offset; // in its file
    CXCursor block;  // the block it is a statement of, or null
    bool setup;      // a statement of a function's outermost block
  };
  std::map<std::string, std::vector<ElementAssignment>> elementAssignments_;
  // Global variables (integers, dim3s) assigned as a whole, by USR: the
  // value, where, and whether it is a statement of a function's outermost
  // block (set up whenever that function runs: `void init() { threads =
  // dim3(256); }`).
  struct GlobalAssignment {
    CXCursor value;
    unsigned offset; // in its file
    bool setup;
  };
  std::map<std::string, std::vector<GlobalAssignment>> globalAssignments_;
  std::set<std::string> namedFunctions_;
  // Names of kernels passed where no launch can follow (inertArgument): they
  // do not count as named.
  std::vector<CXCursor> inertNames_;
  bool definesMain_ = false;
  // Kernels whose dynamic shared memory limit the host raises
  // (cudaFuncSetAttribute with cudaFuncAttributeMaxDynamicSharedMemorySize),
  // by source name.
  std::set<std::string> sharedOptIns_;
  // The kernels launches through pointers and tables may run, by name, and
  // those of them some launch read does run.
  std::set<std::string> choicesSeen_, choicesTaken_;
  // The kernels and the program's functions launcher calls pass, by USR.
  std::map<std::string, CXCursor> passedKernels_, passedFunctions_, passedArrays_;
  // How host code calls each of the program's functions (`launch<16>(d, n,
  // 256)`), by the function's (or its template's) USR: the template
  // arguments as text ("16", "float") and the integer arguments that are
  // constants (LauncherCall). A launcher's launches are read once per
  // distinct call.
  std::map<std::string, std::set<LauncherCall>> calls_;
  // Whose bodies hold each call of calls_ (the callers' USRs), and each
  // called function's definition, by the USR calls_ names it by.
  std::map<std::string, std::map<LauncherCall, std::set<std::string>>> callers_;
  std::map<std::string, CXCursor> definitions_;
  // The function whose body walkHostCode is in.
  std::string walkingFunction_;
  // A launcher called in more ways than this is read once, plainly.
  static constexpr size_t kMostCalls = 16;
  // While reading a launcher for one call: its template and integer
  // parameters by USR (their values) and template parameters by name (text).
  std::map<std::string, int64_t> boundParameters_;
  // The same for its pointer parameters a call passes an allocation, and
  // its function-pointer parameters a call passes a kernel.
  std::map<std::string, PassedAllocation> boundAllocations_;
  std::map<std::string, CXCursor> boundKernels_;
  // Its parameters a call passes a function of the program's: a call through
  // one calls that function.
  std::map<std::string, CXCursor> boundFunctions_;
  // Its `void **` parameters a call passes an array of kernel arguments:
  // the array's variable.
  std::map<std::string, CXCursor> boundArrays_;
  // Its floating-point parameters a call passes a constant.
  std::map<std::string, double> boundReals_;
  // The call's conditions and their leaves (LauncherCall::conditions), and
  // the launcher's parameters by position, whose USRs they are read through.
  std::vector<CallSite::Constraint> boundConditions_;
  std::vector<std::string> boundConditionLeaves_;
  std::vector<std::string> boundParameterUsrs_;
  std::vector<CXCursor> boundParameterCursors_;
  // Its dim3 parameters a call passes a dim3 of known axes.
  std::map<std::string, PassedDims> boundDims_;
  // Its integer parameters a call passes a formula over the leaves of its
  // conditions (LauncherCall::formulas), and what a launch searches for
  // those leaves it reads no value of its own for.
  std::map<std::string, Formula> boundFormulas_;
  std::vector<CallSite::Variable> boundLeafVariables_;
  // For a method's call on an object: the integer fields its constructor
  // set and the constructor's parameters (LauncherCall::members), by USR.
  std::map<std::string, Formula> boundMembers_;
  // Fields of the program's classes that code other than their
  // constructors changes (`n = m;` in a method): a constructed object's
  // value may no longer be theirs.
  std::set<std::string> modifiedFields_;
  // The conditions readCall read around each call in the walk, by where
  // the call is written (placeOf): a launcher read again for each of its own
  // calls (propagateLauncherCalls) finds its calls' conditions there.
  std::map<std::string, CallConditions> conditionsAt_;
  // While the guards of a function that returns a struct are read as
  // conditions on the variable it initializes (addPostconditions): the
  // function's returned local, by USR, read as that variable.
  std::map<std::string, CXCursor> aliases_;
  // The parameters the call being read binds to values that are no constant
  // expression (LauncherCall::literal): values of the program's plain run.
  std::set<std::string> boundByPlainRun_;
  // Set while deciding a branch by bound values (valueInCall): argc is not
  // taken to be 1.
  bool argcUnknown_ = false;
  // While reading a call of a one-line helper (`div_up(n, threads)`): its
  // parameters by USR, as formulas of the call's arguments.
  std::map<std::string, Formula> helperParameters_;
  // Helpers read as procedures (procedureOf), by USR; null for those that
  // are none (and while one is read, for a call of itself).
  std::map<std::string, std::shared_ptr<const Procedure>> procedures_;
  std::vector<std::pair<std::string, std::string>> boundNames_;
  // The cursors from a top-level declaration down to the one being read.
  std::vector<CXCursor> ancestors_;
  // The same while walkModified walks: the parents of the cursor it reads.
  std::vector<CXCursor> walked_;
  // A plain assignment to a local variable: one axis of a dim3 (`threads.x
  // = 16;`) or the whole variable (`threads = dim3(512, 1);`, `blocks = 1;`),
  // and the block it is a statement of (null when it is not one: under an
  // `if`, inside an expression). assignmentsAtLaunch says which hold at a
  // launch.
  struct Assignment {
    std::optional<unsigned> axis; // none: the whole variable
    CXCursor value;
    unsigned offset; // in its file: a launch before it sees the value before
    CXCursor block;
  };
  // dim3 and struct variables by USR: the block that declares them; a
  // dim3's assignments after the declaration, in source order.
  std::map<std::string, CXCursor> declaredIn_;
  std::map<std::string, std::vector<Assignment>> dimAssignments_;
  // A value a statement gives a variable, and where: a launch before it
  // sees the value before.
  struct ValueAt {
    CXCursor value;
    unsigned offset; // in its file
  };
  // Integer variables by USR, the same way: the block that declares them,
  // and their plain assignments (`int blocks; ... blocks = 1;`, C's way of
  // declaring first). When every change of one is such an assignment, what
  // assignmentsAtLaunch says holds at a launch.
  std::map<std::string, CXCursor> scalarDeclaredIn_;
  std::map<std::string, std::vector<Assignment>> scalarAssignments_;
  // Struct variables by USR (declared in a block, like dim3s): their members
  // set as statements of that block (`p.n = n;`, `p.dims.width = w;`).
  struct StructWrite {
    std::string path; // "n", "dims.width"
    CXCursor value;
    unsigned offset; // in its file
    // A statement of the declaring block; else (under an `if`, in a loop)
    // the member's value at a launch is not known.
    bool certain;
  };
  std::map<std::string, std::vector<StructWrite>> structWrites_;
  // `&p.in` passed to an allocator (`cudaMalloc(&p.in, bytes)`): it sets that
  // member, not the whole of p.
  std::vector<CXCursor> allocationOutputs_;
  unsigned launchOffset_ = ~0u; // the launch being read
  bool launchInTemplate_ = false;
  // Variables the program changes after their declaration (assigned,
  // incremented, a member assigned, or their address taken outside a
  // cudaLaunchKernel argument list): their initializer says nothing.
  std::set<std::string> modified_;
  std::map<std::string, int> modifications_; // by variable: assignments, &v, ++, ...
  std::map<std::string, std::optional<int64_t>> queriedAttributes_;
  // `cudaMallocPitch(&p, &pitch, widthBytes, rows)`: by the pitch variable's
  // USR, the widths whose pitch it received, with where (the runtime pads a
  // row to a multiple of kPitchAlignment bytes, as a GPU's does).
  std::map<std::string, std::vector<ValueAt>> pitchOutputs_;
  // `v /= d;` by v's USR: the divisors, with where (a pitch in bytes made
  // one in elements: `pitch /= sizeof(float)`).
  std::map<std::string, std::vector<ValueAt>> divisions_;
  // Code the program does not run without command-line arguments (the body
  // of `if (argc > 1)`, of an option loop): its changes are not counted.
  std::vector<CXCursor> unreached_;
  // The branches the program takes without command-line arguments (the
  // else of `if (argc > 1)`, the branch of `if (seq <= 512)` with seq a
  // const int), with their ifs: a statement there runs whenever its if does.
  struct TakenBranch {
    CXCursor ifStatement, branch;
  };
  std::vector<TakenBranch> taken_;
  // While deciding a condition for that: formulas over argc and constants only.
  bool commandLineOnly_ = false;
  // Variables passed as an integer argument of the launch being read, by
  // USR: a formula refers to them through the argument.
  std::map<std::string, uint32_t> bound_;
  // The keys of bound_ that searchedLeaf added: a variable nothing was known
  // of where it was read. Read where an assignment gives it a value (`bytes
  // = std::max(bytes, 4096)` after the read in its right-hand side), it has
  // that value, which may read the leaf, and not the leaf itself.
  std::set<std::string> searchedKeys_;
  // The struct members that are leaves of the launch being read, by
  // (parameter, member path): their index in formulas.
  std::map<std::pair<uint32_t, std::string>, uint32_t> leafMembers_;
  // While the values of a launch are read with its variables searched: the
  // site they are added to, and the next leaf index.
  CallSite *variablesOf_ = nullptr;
  uint32_t nextLeaf_ = 0;

  // The variable a changed expression names: `v`, `v.x`, `v[i]`.
  static std::optional<CXCursor> variableOf(CXCursor expression) {
    CXCursor cursor = stripWrappers(expression);
    while (kindOf(cursor) == CXCursor_MemberRefExpr ||
           kindOf(cursor) == CXCursor_ArraySubscriptExpr) {
      std::vector<CXCursor> children = childrenOf(cursor);
      if (children.empty())
        return std::nullopt;
      cursor = stripWrappers(children.front());
    }
    if (kindOf(cursor) != CXCursor_DeclRefExpr)
      return std::nullopt;
    return clang_getCursorReferenced(cursor);
  }

  void markModified(CXCursor expression) {
    if (std::optional<CXCursor> variable = variableOf(expression)) {
      modified_.insert(usrOf(*variable));
      ++modifications_[usrOf(*variable)];
    }
    std::optional<CXCursor> field = ownField(expression);
    if (field && std::none_of(walked_.begin(), walked_.end(), [](CXCursor walked) {
          return kindOf(walked) == CXCursor_Constructor;
        }))
      modifiedFields_.insert(usrOf(*field));
  }

  // What `expression` takes the address of (`v` in `&v`), when it is such.
  static std::optional<CXCursor> addressTakenBy(CXCursor expression) {
    CXCursor address = stripPointerWrappers(expression);
    std::vector<CXCursor> operands = childrenOf(address);
    if (kindOf(address) != CXCursor_UnaryOperator ||
        clang_getCursorUnaryOperatorKind(address) != CXUnaryOperator_AddrOf ||
        operands.size() != 1)
      return std::nullopt;
    return operands.front();
  }

  // The last of `records` (each with an `offset`) before the launch being
  // read, or null.
  template <class Record> const Record *lastBeforeLaunch(const std::vector<Record> &records) const {
    return lastBefore(records, launchOffset_);
  }
  // The last of `records` before file offset `offset`, or null.
  template <class Record>
  static const Record *lastBefore(const std::vector<Record> &records, unsigned offset) {
    const Record *last = nullptr;
    for (const Record &record : records)
      if (record.offset < offset && (!last || record.offset > last->offset))
        last = &record;
    return last;
  }

  // The formula of `set.value` as it was where it was set (`blocks = n /
  // threads;` reads n there, not at the launch).
  std::optional<Formula> formulaWhereSet(const ValueAt &set, int depth) {
    unsigned launch = launchOffset_;
    launchOffset_ = set.offset;
    std::optional<Formula> value = formulaOf(set.value, depth + 1);
    launchOffset_ = launch;
    return value;
  }

  // `cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, dev)`: v
  // holds the simulated device's value (while nothing else changes v).
  void readAttributeQuery(CXCursor call) {
    if (spellingOf(clang_getCursorReferenced(call)) != "cudaDeviceGetAttribute" ||
        clang_Cursor_getNumArguments(call) < 2)
      return;
    std::optional<CXCursor> out = addressTakenBy(clang_Cursor_getArgument(call, 0));
    std::optional<CXCursor> variable = out ? variableOf(*out) : std::nullopt;
    CXCursor attribute =
        clang_getCursorReferenced(stripWrappers(clang_Cursor_getArgument(call, 1)));
    if (!variable || kindOf(attribute) != CXCursor_EnumConstantDecl)
      return;
    std::optional<int64_t> &value = queriedAttributes_[usrOf(*variable)];
    value = simulatedDeviceAttribute(spellingOf(attribute));
  }

  // `cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
  // bytes)`: see sharedOptIns_.
  void readSharedOptIn(CXCursor call) {
    if (spellingOf(clang_getCursorReferenced(call)) != "cudaFuncSetAttribute" ||
        clang_Cursor_getNumArguments(call) < 2)
      return;
    CXCursor attribute =
        clang_getCursorReferenced(stripWrappers(clang_Cursor_getArgument(call, 1)));
    CXCursor kernel = stripPointerWrappers(clang_Cursor_getArgument(call, 0));
    if (spellingOf(attribute) != "cudaFuncAttributeMaxDynamicSharedMemorySize" ||
        kindOf(kernel) != CXCursor_DeclRefExpr)
      return;
    sharedOptIns_.insert(spellingOf(clang_getCursorReferenced(kernel)));
  }

  // `cudaMallocPitch(&p, &pitch, width, rows)`: see pitchOutputs_.
  void readPitchOutput(CXCursor call) {
    if (spellingOf(clang_getCursorReferenced(call)) != "cudaMallocPitch" ||
        clang_Cursor_getNumArguments(call) < 3)
      return;
    std::optional<CXCursor> out = addressTakenBy(clang_Cursor_getArgument(call, 1));
    if (!out || kindOf(stripWrappers(*out)) != CXCursor_DeclRefExpr)
      return; // a plain variable, not a member or an element
    if (std::optional<CXCursor> variable = variableOf(*out))
      pitchOutputs_[usrOf(*variable)].push_back(
          {clang_Cursor_getArgument(call, 2), offsetOf(call)});
  }

  // The pitch a variable holds at the launch being read, when every change
  // of it is a cudaMallocPitch output or a division (`pitch /=
  // sizeof(float)`): the last output's width, padded, divided as it was
  // after that output.
  std::optional<Formula> pitchAtLaunch(CXCursor variable, int depth) {
    constexpr int64_t kPitchAlignment = 256; // runtime/CudaApi.cpp's cudaMallocPitch
    std::string usr = usrOf(variable);
    auto outputs = pitchOutputs_.find(usr);
    auto changes = modifications_.find(usr);
    auto divided = divisions_.find(usr);
    size_t divisions = divided == divisions_.end() ? 0 : divided->second.size();
    auto assigned = assignedValues_.find(usr);
    size_t assignments = assigned == assignedValues_.end() ? 0 : assigned->second.size();
    if (outputs == pitchOutputs_.end() || changes == modifications_.end() ||
        size_t(changes->second) != outputs->second.size() + divisions || assignments != divisions)
      return std::nullopt;
    const ValueAt *last = lastBeforeLaunch(outputs->second);
    std::optional<Formula> width = last ? formulaWhereSet(*last, depth) : std::nullopt;
    if (!width)
      return std::nullopt;
    Formula alignment = Formula::constant(kPitchAlignment);
    Formula padded = Formula::binary(Formula::Op::Add, *width,
                                     Formula::constant(kPitchAlignment - 1));
    Formula pitch = Formula::binary(
        Formula::Op::Mul, Formula::binary(Formula::Op::Div, padded, alignment), alignment);
    for (size_t d = 0; d < divisions; ++d) {
      const ValueAt &division = divided->second[d];
      if (division.offset < last->offset || division.offset > launchOffset_)
        continue; // a division of an earlier pitch, or after the launch
      std::optional<Formula> divisor = formulaOf(division.value, depth + 1);
      if (!divisor)
        return std::nullopt;
      pitch = Formula::binary(Formula::Op::Div, pitch, *divisor);
    }
    return pitch;
  }

  // Parameter `name` (argc, argv) of the program's main.
  static bool isMainParameter(CXCursor variable, const char *name) {
    if (kindOf(variable) != CXCursor_ParmDecl || spellingOf(variable) != name)
      return false;
    CXCursor function = clang_getCursorSemanticParent(variable);
    return kindOf(function) == CXCursor_FunctionDecl && spellingOf(function) == "main";
  }

  // Whether `expression` names main's argc or argv (`(const char **)argv`).
  static bool isCommandLine(CXCursor expression) {
    CXCursor cursor = stripWrappers(expression);
    while (kindOf(cursor) == CXCursor_CXXConstCastExpr ||
           kindOf(cursor) == CXCursor_CXXReinterpretCastExpr) {
      std::vector<CXCursor> operand = childrenOf(cursor);
      if (operand.empty())
        return false;
      cursor = stripWrappers(operand.back());
    }
    if (kindOf(cursor) != CXCursor_DeclRefExpr)
      return false;
    CXCursor variable = clang_getCursorReferenced(cursor);
    return isMainParameter(variable, "argc") || isMainParameter(variable, "argv");
  }

  // A test for a command-line option, false when there is none: a call
  // given argc or argv (`checkCmdLineFlag(argc, argv, "n")`), or the result
  // of one compared with -1 (`(c = getopt(argc, argv, "n:")) != -1`).
  static bool isOptionTest(CXCursor condition) {
    CXCursor cursor = stripWrappers(condition);
    if (kindOf(cursor) == CXCursor_CallExpr) {
      for (int i = 0, n = clang_Cursor_getNumArguments(cursor); i < n; ++i)
        if (isCommandLine(clang_Cursor_getArgument(cursor, unsigned(i))))
          return true;
      return false;
    }
    std::vector<CXCursor> sides = childrenOf(cursor);
    if (kindOf(cursor) != CXCursor_BinaryOperator ||
        clang_getCursorBinaryOperatorKind(cursor) != CXBinaryOperator_NE || sides.size() != 2)
      return false;
    std::optional<SiteValue> end = folded(sides[1], "");
    CXCursor result = stripWrappers(sides[0]);
    std::vector<CXCursor> assigned = childrenOf(result);
    if (kindOf(result) == CXCursor_BinaryOperator &&
        clang_getCursorBinaryOperatorKind(result) == CXBinaryOperator_Assign &&
        assigned.size() == 2)
      result = assigned[1];
    return end && !end->isFloat && end->integer == -1 && isOptionTest(result);
  }

  // Whether `condition` holds when the program runs without command-line
  // arguments, where that decides it: `argc > 1` (argc is 1), a constant, an
  // option test (false).
  std::optional<bool> holdsWithoutArguments(CXCursor condition) {
    if (isOptionTest(condition))
      return false;
    commandLineOnly_ = true;
    std::optional<Formula> formula = formulaOf(condition, 0);
    commandLineOnly_ = false;
    std::optional<int64_t> value = formula ? constantValue(*formula) : std::nullopt;
    if (!value)
      return std::nullopt;
    return *value != 0;
  }

  // How the run without command-line arguments goes through `statement`,
  // where its condition decides it: the part it never runs (an if's branch
  // not taken: `if (argc > 1) n = atoi(argv[1]);`; the body of a loop over
  // options: `while ((c = getopt(...)) != -1)`, `for (int i = 1; i < argc;
  // ++i)`), and for an if the branch it takes.
  struct DecidedParts {
    std::optional<CXCursor> unreached, taken;
  };
  DecidedParts decidedWithoutArguments(CXCursor statement) {
    CXCursorKind kind = kindOf(statement);
    if (kind != CXCursor_IfStmt && kind != CXCursor_WhileStmt && kind != CXCursor_ForStmt)
      return {};
    std::vector<CXCursor> parts = childrenOf(statement);
    if (kind == CXCursor_IfStmt && (parts.size() == 2 || parts.size() == 3) &&
        clang_isExpression(kindOf(parts[0]))) {
      std::optional<bool> holds = holdsWithoutArguments(parts[0]);
      if (!holds)
        return {};
      std::optional<CXCursor> otherwise =
          parts.size() == 3 ? std::optional<CXCursor>(parts[2]) : std::nullopt;
      return *holds ? DecidedParts{otherwise, parts[1]} : DecidedParts{parts[1], otherwise};
    }
    if (kind == CXCursor_WhileStmt && parts.size() == 2 && clang_isExpression(kindOf(parts[0]))) {
      std::optional<bool> holds = holdsWithoutArguments(parts[0]);
      return {holds && !*holds ? std::optional<CXCursor>(parts[1]) : std::nullopt, std::nullopt};
    }
    // for (int i = A; condition; step): the condition with i = A.
    std::optional<CXCursor> variable =
        kind == CXCursor_ForStmt && parts.size() == 4 ? loopVariableOf(parts[0]) : std::nullopt;
    if (!variable)
      return {};
    CXCursor start = clang_Cursor_getVarDeclInitializer(*variable);
    std::optional<SiteValue> first = clang_Cursor_isNull(start) ? std::nullopt : folded(start, "");
    if (!first || first->isFloat)
      return {};
    std::string usr = usrOf(*variable);
    boundParameters_[usr] = first->integer;
    std::optional<bool> holds = holdsWithoutArguments(parts[1]);
    boundParameters_.erase(usr);
    return {holds && !*holds ? std::optional<CXCursor>(parts[3]) : std::nullopt, std::nullopt};
  }

  // The part of `statement` no run of the program reaches, whatever its
  // command line: an if's branch or a while's body under a condition of
  // constants alone (`if (batch * heads <= 120)` of two const ints). What a
  // launcher's call passes is no such constant (valueInCall decides by it
  // per call; the plain run's value may be another run's other value).
  std::optional<CXCursor> deadInEveryRun(CXCursor statement) {
    CXCursorKind kind = kindOf(statement);
    if (kind != CXCursor_IfStmt && kind != CXCursor_WhileStmt)
      return std::nullopt;
    std::vector<CXCursor> parts = childrenOf(statement);
    if (parts.size() < 2 || !clang_isExpression(kindOf(parts[0])) || isOptionTest(parts[0]))
      return std::nullopt;
    bool outer = std::exchange(argcUnknown_, true);
    std::map<std::string, int64_t> passed = std::exchange(boundParameters_, {});
    std::optional<CXCursor> dead = decidedWithoutArguments(statement).unreached;
    boundParameters_ = std::move(passed);
    argcUnknown_ = outer;
    return dead;
  }

  std::optional<int64_t> queriedAttribute(CXCursor variable) const {
    std::string usr = usrOf(variable);
    auto query = queriedAttributes_.find(usr);
    auto changes = modifications_.find(usr);
    // The one change is the query's own &v.
    if (query == queriedAttributes_.end() || changes == modifications_.end() ||
        changes->second != 1 || reassigned_.count(usr))
      return std::nullopt;
    return query->second;
  }

  // `a[i][j]` for an array variable a: a and the indices, outermost first.
  struct Subscripts {
    CXCursor array;
    std::vector<CXCursor> indices;
  };
  static std::optional<Subscripts> subscriptsOf(CXCursor expression) {
    Subscripts subscripts;
    CXCursor cursor = stripWrappers(expression);
    while (kindOf(cursor) == CXCursor_ArraySubscriptExpr) {
      std::vector<CXCursor> operands = childrenOf(cursor);
      if (operands.size() != 2)
        return std::nullopt;
      subscripts.indices.insert(subscripts.indices.begin(), operands[1]);
      cursor = stripWrappers(operands[0]);
    }
    if (subscripts.indices.empty() || kindOf(cursor) != CXCursor_DeclRefExpr)
      return std::nullopt;
    subscripts.array = clang_getCursorReferenced(cursor);
    if (kindOf(subscripts.array) != CXCursor_VarDecl ||
        clang_getCursorType(subscripts.array).kind != CXType_ConstantArray)
      return std::nullopt;
    return subscripts;
  }

  // `table[1] = &k;`, `grid[0][1] = dim3(16, 4);`: see elementAssignments_.
  void readElementAssignment(CXCursor target, CXCursor value, CXCursor statement) {
    std::optional<Subscripts> subscripts = subscriptsOf(target);
    if (!subscripts)
      return;
    ElementAssignment set{{},
                          value,
                          guardsOf(statement),
                          offsetOf(statement),
                          statementBlock(statement),
                          inOutermostBlock()};
    for (CXCursor index : subscripts->indices) {
      std::optional<SiteValue> constant = folded(index, "");
      set.indices.push_back(constant && !constant->isFloat ? std::optional(constant->integer)
                                                           : std::nullopt);
    }
    elementAssignments_[usrOf(subscripts->array)].push_back(std::move(set));
  }

  // The value the array element `expression` (`grid[d][fp]`) holds at the
  // launch being read, where every change of the array is an element given
  // at constant indices and the indices here are known: that element's one
  // assignment. A global array may be filled in another function, by a
  // statement of its outermost block (as setupValueOf's globals); a local
  // one's must be a statement of a block around the launch, before it.
  std::optional<ValueAt> elementAtLaunch(CXCursor expression) {
    std::optional<Subscripts> subscripts = subscriptsOf(expression);
    if (!subscripts)
      return std::nullopt;
    std::string usr = usrOf(subscripts->array);
    auto assigned = elementAssignments_.find(usr);
    auto changes = modifications_.find(usr);
    if (assigned == elementAssignments_.end() || changes == modifications_.end() ||
        size_t(changes->second) != assigned->second.size())
      return std::nullopt;
    std::vector<int64_t> indices;
    for (CXCursor index : subscripts->indices) {
      SiteValue value = valueOf(index);
      if (!value.isConstant() || value.isFloat)
        return std::nullopt;
      indices.push_back(value.integer);
    }
    const ElementAssignment *match = nullptr;
    for (const ElementAssignment &set : assigned->second) {
      bool other = false, exact = set.indices.size() == indices.size();
      for (size_t i = 0; i < set.indices.size() && i < indices.size(); ++i) {
        other = other || (set.indices[i] && *set.indices[i] != indices[i]);
        exact = exact && set.indices[i];
      }
      if (other)
        continue; // another element
      if (!exact || match)
        return std::nullopt; // maybe this one, or given twice
      match = &set;
    }
    if (!match || (isGlobal(subscripts->array)
                       ? !match->setup
                       : match->offset >= launchOffset_ || !aroundLaunch(match->block)))
      return std::nullopt;
    return ValueAt{match->value, match->offset};
  }

  static bool isGlobal(CXCursor variable) {
    CXCursorKind scope = kindOf(clang_getCursorSemanticParent(variable));
    return scope == CXCursor_TranslationUnit || scope == CXCursor_Namespace;
  }

  // A global the program assigns exactly once, as a statement of a
  // function's outermost block, and changes no other way: that value.
  std::optional<ValueAt> setupValueOf(CXCursor variable) const {
    std::string usr = usrOf(variable);
    auto assigned = globalAssignments_.find(usr);
    auto changes = modifications_.find(usr);
    if (assigned == globalAssignments_.end() || assigned->second.size() != 1 ||
        !assigned->second.front().setup || changes == modifications_.end() ||
        changes->second != 1)
      return std::nullopt;
    return ValueAt{assigned->second.front().value, assigned->second.front().offset};
  }

  // `N = 1 << 20;`, `threads = dim3(256);` for a global: see
  // globalAssignments_.
  void readGlobalAssignment(CXCursor target, CXCursor value, CXCursor statement) {
    CXCursor variable = stripWrappers(target);
    if (kindOf(variable) != CXCursor_DeclRefExpr)
      return;
    variable = clang_getCursorReferenced(variable);
    if (kindOf(variable) == CXCursor_VarDecl && isGlobal(variable))
      globalAssignments_[usrOf(variable)].push_back(
          {value, offsetOf(statement), inOutermostBlock()});
  }

  // The values `statement`, a child of what walkModified reads, is written
  // under: each switch case and `if (v == c)` branch around it.
  std::vector<Binding> guardsOf(CXCursor statement) const {
    std::vector<Binding> guards;
    for (size_t i = walked_.size(); i-- > 0;) {
      CXCursor inner = i + 1 < walked_.size() ? walked_[i + 1] : statement;
      std::vector<CXCursor> parts = childrenOf(walked_[i]);
      std::optional<Binding> guard;
      if (kindOf(walked_[i]) == CXCursor_IfStmt && parts.size() >= 2 &&
          clang_equalCursors(parts[1], inner))
        guard = equalityBinding(parts[0]);
      else if (kindOf(walked_[i]) == CXCursor_SwitchStmt && i + 1 < walked_.size())
        // walked_[i + 1] is the body; the statement of it holding this one:
        if (std::optional<SwitchCases> cases = casesOf(walked_[i])) {
          CXCursor member = i + 2 < walked_.size() ? walked_[i + 2] : statement;
          for (const auto &[body, value] : cases->statements)
            if (value && clang_equalCursors(body, member))
              guard = Binding{cases->variable, *value};
        }
      if (guard)
        guards.push_back(*guard);
    }
    return guards;
  }

  // Whether `callee` may change its argument `i`: a non-const reference
  // parameter may. A forwarding reference (`Args &&...args` in a template,
  // an lvalue reference in its instantiation) passes its arguments on, as a
  // timing harness passes a launcher's sizes, and changes none.
  static bool mayChange(CXCursor callee, int i) {
    CXCursor param = clang_Cursor_getArgument(callee, unsigned(i));
    if (clang_Cursor_isNull(param))
      return false;
    CXType type = clang_getCursorType(param);
    if (type.kind != CXType_LValueReference ||
        clang_isConstQualifiedType(clang_getPointeeType(type)))
      return false;
    CXCursor pattern = clang_getSpecializedCursorTemplate(callee);
    if (clang_Cursor_isNull(pattern))
      return true;
    std::vector<CXCursor> declared = parametersOf(pattern);
    if (declared.empty())
      return true;
    // Arguments past the pattern's last parameter are its pack's.
    CXCursor declaration = declared[std::min(size_t(i), declared.size() - 1)];
    CXType declaredType = clang_getCursorType(declaration);
    bool forwarding = declaredType.kind == CXType_RValueReference ||
                      take(clang_getTypeSpelling(declaredType)).ends_with("&&...");
    return !forwarding;
  }

  void walkModified(CXCursor cursor, bool inInitList) {
    walked_.push_back(cursor);
    for (CXCursor child : childrenOf(cursor)) {
      if (std::any_of(unreached_.begin(), unreached_.end(),
                      [&](CXCursor dead) { return clang_equalCursors(dead, child); }))
        continue;
      CXCursorKind kind = kindOf(child);
      DecidedParts decided = decidedWithoutArguments(child);
      if (decided.unreached)
        unreached_.push_back(*decided.unreached);
      if (decided.taken)
        taken_.push_back({child, *decided.taken});
      if (kind == CXCursor_DeclStmt && kindOf(cursor) == CXCursor_CompoundStmt)
        for (CXCursor variable : childrenOf(child)) {
          if (kindOf(variable) != CXCursor_VarDecl)
            continue;
          CXType type = clang_getCursorType(variable);
          if (isDim3(type) || isStruct(type))
            declaredIn_.emplace(usrOf(variable), cursor);
          else if (isIntegerOrEnum(clang_getCanonicalType(type).kind))
            scalarDeclaredIn_.emplace(usrOf(variable), cursor);
        }
      if (kind == CXCursor_BinaryOperator && readMemberAssignment(child, cursor)) {
        walkModified(child, inInitList);
        continue;
      }
      if (kind == CXCursor_BinaryOperator || kind == CXCursor_CompoundAssignOperator) {
        if (isAssignment(clang_getCursorBinaryOperatorKind(child))) {
          std::vector<CXCursor> operands = childrenOf(child);
          if (!operands.empty())
            markModified(operands.front());
          if (operands.size() == 2 &&
              clang_getCursorBinaryOperatorKind(child) == CXBinaryOperator_Assign) {
            readElementAssignment(operands[0], operands[1], child);
            readGlobalAssignment(operands[0], operands[1], child);
          }
          if (operands.size() == 2 && kindOf(stripWrappers(operands[0])) == CXCursor_DeclRefExpr) {
            std::string usr = usrOf(clang_getCursorReferenced(stripWrappers(operands[0])));
            reassigned_.insert(usr);
            assignedValues_[usr].push_back({operands[1], guardsOf(child)});
            if (clang_getCursorBinaryOperatorKind(child) == CXBinaryOperator_DivAssign)
              divisions_[usr].push_back({operands[1], offsetOf(child)});
            if (clang_getCursorBinaryOperatorKind(child) == CXBinaryOperator_Assign &&
                scalarDeclaredIn_.count(usr))
              scalarAssignments_[usr].push_back(
                  {std::nullopt, operands[1], offsetOf(child), statementBlock(child)});
            // `n *= 1024`: the value is the whole expression's (formulaOf).
            else if (compoundOp(clang_getCursorBinaryOperatorKind(child)) &&
                     scalarDeclaredIn_.count(usr))
              scalarAssignments_[usr].push_back(
                  {std::nullopt, child, offsetOf(child), statementBlock(child)});
          }
        }
      } else if (kind == CXCursor_UnaryOperator) {
        CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(child);
        bool allocates = std::any_of(allocationOutputs_.begin(), allocationOutputs_.end(),
                                     [&](CXCursor output) { return clang_equalCursors(output, child); });
        bool changes = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec ||
                       op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PreDec ||
                       (op == CXUnaryOperator_AddrOf && !inInitList && !allocates);
        std::vector<CXCursor> operands = childrenOf(child);
        if (changes && !operands.empty())
          markModified(operands.front());
      } else if (kind == CXCursor_CallExpr) {
        readObjectAssignment(child);
        readAttributeQuery(child);
        readPitchOutput(child);
        if (std::optional<CXCursor> output = memberAllocatedBy(child))
          allocationOutputs_.push_back(*output);
        CXCursor callee = clang_getCursorReferenced(child);
        int count = clang_Cursor_getNumArguments(child);
        // A member operator's call (`std::cin >> n`) passes its object first.
        int object = kindOf(callee) == CXCursor_CXXMethod &&
                             count == clang_Cursor_getNumArguments(callee) + 1
                         ? 1
                         : 0;
        for (int i = object; i < count && !clang_Cursor_isNull(callee); ++i)
          if (mayChange(callee, i - object))
            markModified(clang_Cursor_getArgument(child, unsigned(i)));
      }
      walkModified(child, inInitList || kind == CXCursor_InitListExpr);
    }
    walked_.pop_back();
  }

  // Whether an expression below a statement runs whenever the statement
  // does: a wrapper, or an assignment holding it (`N = M = K = 2048;`).
  static bool runsWithItsStatement(CXCursor expression) {
    CXCursorKind kind = kindOf(expression);
    return kind == CXCursor_UnexposedExpr || kind == CXCursor_ParenExpr ||
           (kind == CXCursor_BinaryOperator &&
            clang_getCursorBinaryOperatorKind(expression) == CXBinaryOperator_Assign);
  }

  // The block whose statement the expression walkModified reads is (seen
  // through the wrappers clang puts around a temporary and the assignments
  // it is chained in), or a null cursor.
  // An if the program is sure to take one way (decidedWithoutArguments) is no
  // block of its own for the statements of that branch.
  CXCursor statementBlock(CXCursor statement) const {
    unsigned offset = offsetOf(statement);
    for (size_t i = walked_.size(); i-- > 0;) {
      CXCursor at = walked_[i];
      bool throughTaken = std::any_of(taken_.begin(), taken_.end(), [&](const TakenBranch &t) {
        return clang_equalCursors(t.branch, at) ||
               (clang_equalCursors(t.ifStatement, at) && encloses(t.branch, offset));
      });
      if (throughTaken)
        continue;
      if (kindOf(at) == CXCursor_CompoundStmt)
        return at;
      if (!runsWithItsStatement(at))
        break;
    }
    return clang_getNullCursor();
  }

  // Whether the block statementBlock() finds is a function's body: the
  // statement runs whenever the function does.
  bool inOutermostBlock() const {
    for (size_t i = walked_.size(); i-- > 1;) {
      CXCursorKind kind = kindOf(walked_[i]);
      if (kind == CXCursor_CompoundStmt) {
        CXCursorKind parent = kindOf(walked_[i - 1]);
        return parent == CXCursor_FunctionDecl || parent == CXCursor_CXXMethod ||
               parent == CXCursor_Constructor || parent == CXCursor_FunctionTemplate;
      }
      if (!runsWithItsStatement(walked_[i]))
        break;
    }
    return false;
  }

  static bool isLoop(CXCursor cursor) {
    CXCursorKind kind = kindOf(cursor);
    return kind == CXCursor_ForStmt || kind == CXCursor_WhileStmt || kind == CXCursor_DoStmt ||
           kind == CXCursor_CXXForRangeStmt;
  }

  static bool encloses(CXCursor statement, unsigned offset) {
    CXSourceRange extent = clang_getCursorExtent(statement);
    unsigned begin = 0, end = 0;
    clang_getExpansionLocation(clang_getRangeStart(extent), nullptr, nullptr, nullptr, &begin);
    clang_getExpansionLocation(clang_getRangeEnd(extent), nullptr, nullptr, nullptr, &end);
    return begin <= offset && offset < end;
  }

  // Whether `block` (null for none) holds the launch being read.
  bool aroundLaunch(CXCursor block) const {
    return !clang_Cursor_isNull(block) &&
           std::any_of(ancestors_.begin(), ancestors_.end(),
                       [&](CXCursor ancestor) { return clang_equalCursors(ancestor, block); });
  }

  // The assignments of one variable (declared at `declared`) that decide
  // its value at the launch being read, in source order; nothing when that
  // value is not known. An assignment before the launch that is a statement
  // of a block around it runs on every way there, so the last such whole
  // assignment (else the declaration) starts the value, and the axes
  // assigned after it so too change it. Any other assignment after that
  // start may run before the launch: one written before the launch (under an
  // `if`), or one after it inside a loop around the launch that does not
  // also hold the start (the next iteration sees it). Then the value is not
  // known.
  std::optional<std::vector<const Assignment *>>
  assignmentsAtLaunch(const std::vector<Assignment> &records, unsigned declared) const {
    auto runs = [&](const Assignment &set) {
      return set.offset < launchOffset_ && aroundLaunch(set.block);
    };
    unsigned start = declared;
    for (const Assignment &set : records)
      if (!set.axis && runs(set) && kindOf(set.value) != CXCursor_CompoundAssignOperator)
        start = std::max(start, set.offset);
    std::vector<const Assignment *> held;
    for (const Assignment &set : records) {
      if (set.offset < start)
        continue;
      if (set.offset < launchOffset_) {
        if (!runs(set))
          return std::nullopt;
        held.push_back(&set);
        continue;
      }
      for (CXCursor ancestor : ancestors_)
        if (isLoop(ancestor) && encloses(ancestor, set.offset) && !encloses(ancestor, start))
          return std::nullopt;
    }
    std::sort(held.begin(), held.end(),
              [](const Assignment *a, const Assignment *b) { return a->offset < b->offset; });
    return held;
  }

  // A member of a local variable, as written: `p.n`, `p.dims.width`, `v.x`
  // (not through a pointer, `q->n`).
  struct MemberPath {
    CXCursor variable;
    std::string path;
  };
  static std::optional<MemberPath> memberPathOf(CXCursor expression, bool ofParameters = false) {
    CXCursor cursor = stripWrappers(expression);
    std::string path;
    while (kindOf(cursor) == CXCursor_MemberRefExpr) {
      std::vector<CXCursor> base = childrenOf(cursor);
      if (base.size() != 1 ||
          clang_getCanonicalType(clang_getCursorType(base[0])).kind != CXType_Record)
        return std::nullopt;
      path = path.empty() ? spellingOf(cursor) : spellingOf(cursor) + "." + path;
      cursor = stripWrappers(base[0]);
    }
    if (path.empty() || kindOf(cursor) != CXCursor_DeclRefExpr)
      return std::nullopt;
    CXCursor variable = clang_getCursorReferenced(cursor);
    if (kindOf(variable) != CXCursor_VarDecl &&
        (!ofParameters || kindOf(variable) != CXCursor_ParmDecl))
      return std::nullopt;
    return MemberPath{variable, path};
  }

  // `&p.in` when `call` allocates device memory into that member of a local
  // struct (`cudaMalloc(&p.in, bytes)`).
  static std::optional<CXCursor> memberAllocatedBy(CXCursor call) {
    if (!isAllocator(spellingOf(clang_getCursorReferenced(call))) ||
        clang_Cursor_getNumArguments(call) < 2)
      return std::nullopt;
    std::optional<CXCursor> target = addressTakenBy(clang_Cursor_getArgument(call, 0));
    std::optional<MemberPath> member = target ? memberPathOf(*target) : std::nullopt;
    if (!member || !isStruct(clang_getCursorType(member->variable)))
      return std::nullopt;
    return stripWrappers(clang_Cursor_getArgument(call, 0));
  }

  // `v.x = value;` as a statement of the block that declares dim3 `v`: one
  // axis set after the declaration; `p.n = value;` for a struct `p`
  // declared in a block, anywhere: its members keep every such write. False
  // for any other expression.
  bool readMemberAssignment(CXCursor assignment, CXCursor block) {
    if (clang_getCursorBinaryOperatorKind(assignment) != CXBinaryOperator_Assign)
      return false;
    std::vector<CXCursor> operands = childrenOf(assignment);
    if (operands.size() != 2)
      return false;
    std::optional<MemberPath> member = memberPathOf(operands[0]);
    if (!member)
      return false;
    std::string usr = usrOf(member->variable);
    auto declared = declaredIn_.find(usr);
    if (declared == declaredIn_.end())
      return false;
    bool inDeclaringBlock = clang_equalCursors(declared->second, block);
    if (isStruct(clang_getCursorType(member->variable))) {
      structWrites_[usr].push_back(
          {member->path, operands[1], offsetOf(assignment), inDeclaringBlock});
      return true;
    }
    std::optional<unsigned> axis = axisNamed(member->path);
    if (!axis || !isDim3(clang_getCursorType(member->variable)))
      return false;
    dimAssignments_[usr].push_back(
        {*axis, operands[1], offsetOf(assignment), statementBlock(assignment)});
    return true;
  }

  // An assignment operator of a class called on an object (`threads =
  // dim3(512, 1);`, `p = other;`, `v += w;`): C++ spells it as a call, not
  // as the assignment a number gets. A whole dim3 assigned is recorded; any
  // other such object is changed.
  void readObjectAssignment(CXCursor call) {
    std::string callee = spellingOf(clang_getCursorReferenced(call));
    bool assigns = callee.rfind("operator", 0) == 0 && callee.size() > 8 &&
                   callee.back() == '=' && callee != "operator==" && callee != "operator!=" &&
                   callee != "operator<=" && callee != "operator>=";
    if (!assigns || clang_Cursor_getNumArguments(call) != 2)
      return;
    CXCursor object = stripWrappers(clang_Cursor_getArgument(call, 0));
    CXCursor value = clang_Cursor_getArgument(call, 1);
    CXCursor variable = clang_getCursorReferenced(object);
    auto declared = declaredIn_.find(usrOf(variable));
    if (callee == "operator=" && kindOf(object) == CXCursor_DeclRefExpr &&
        isDim3(clang_getCursorType(variable)) && declared != declaredIn_.end()) {
      dimAssignments_[declared->first].push_back(
          {std::nullopt, value, offsetOf(call), statementBlock(call)});
      return;
    }
    if (callee == "operator=") {
      readElementAssignment(object, value, call);
      readGlobalAssignment(object, value, call);
    }
    markModified(object);
  }

  static std::optional<unsigned> axisNamed(const std::string &member) {
    if (member == "x")
      return 0u;
    if (member == "y")
      return 1u;
    if (member == "z")
      return 2u;
    return std::nullopt;
  }

  static unsigned offsetOf(CXCursor cursor) {
    unsigned offset = 0;
    clang_getExpansionLocation(clang_getCursorLocation(cursor), nullptr, nullptr, nullptr,
                               &offset);
    return offset;
  }

  // Whether a function is device code only (__global__, or __device__
  // without __host__): its body is no host code.
  static bool isDeviceOnly(CXCursor function) {
    bool device = false, host = false;
    for (CXCursor child : childrenOf(function)) {
      CXCursorKind kind = kindOf(child);
      device |= kind == CXCursor_CUDAGlobalAttr || kind == CXCursor_CUDADeviceAttr;
      host |= kind == CXCursor_CUDAHostAttr;
    }
    return device && !host;
  }

  // The host code below `cursor`: the functions it names and the device
  // memory it allocates.
  void walkHostCode(CXCursor cursor) {
    CXCursorKind kind = kindOf(cursor);
    if ((kind == CXCursor_FunctionDecl || kind == CXCursor_FunctionTemplate) &&
        isDeviceOnly(cursor))
      return;
    // The loops around a launcher's call (readCall) are read from here.
    ancestors_.push_back(cursor);
    std::optional<std::string> outer;
    if (kind == CXCursor_FunctionDecl || kind == CXCursor_FunctionTemplate ||
        kind == CXCursor_CXXMethod) {
      outer = std::exchange(walkingFunction_, usrOf(cursor));
      definesMain_ |= kind == CXCursor_FunctionDecl && spellingOf(cursor) == "main" &&
                      clang_isCursorDefinition(cursor);
    } else if (kind == CXCursor_DeclRefExpr || kind == CXCursor_OverloadedDeclRef) {
      CXCursor referenced = clang_getCursorReferenced(cursor);
      CXCursorKind target = kindOf(referenced);
      bool inert = std::any_of(inertNames_.begin(), inertNames_.end(),
                               [&](CXCursor name) { return clang_equalCursors(name, cursor); });
      if (!inert && (kind == CXCursor_OverloadedDeclRef || target == CXCursor_FunctionDecl ||
                     target == CXCursor_FunctionTemplate))
        namedFunctions_.insert(spellingOf(cursor));
    }
    if (kind == CXCursor_CallExpr) {
      for (int i = 0, n = clang_Cursor_getNumArguments(cursor); i < n; ++i)
        if (std::optional<CXCursor> name =
                functionName(clang_Cursor_getArgument(cursor, unsigned(i)));
            name && inertArgument(cursor, unsigned(i)))
          inertNames_.push_back(*name);
      readAllocation(cursor);
      readSharedOptIn(cursor);
      readDeviceWrite(cursor);
      readCall(cursor);
    } else if (kind == CXCursor_ForStmt) {
      readFillLoop(cursor);
    }
    std::optional<CXCursor> dead = deadInEveryRun(cursor);
    for (CXCursor child : childrenOf(cursor))
      if (!dead || !clang_equalCursors(child, *dead))
        walkHostCode(child);
    if (outer)
      walkingFunction_ = std::move(*outer);
    ancestors_.pop_back();
  }

  // The allocation `argument`, a pointer a call passes, points at the start
  // of, where its size is a constant.
  std::optional<PassedAllocation> passedAllocation(CXCursor argument) {
    if (clang_getCanonicalType(clang_getCursorType(argument)).kind != CXType_Pointer)
      return std::nullopt;
    std::optional<CXCursor> offset;
    const Allocation *allocation = allocationOf(argument, offset);
    if (!allocation)
      return boundAllocationOf(argument);
    std::optional<SiteValue> bytes = !offset ? allocatedBytes(*allocation) : std::nullopt;
    if (!bytes || !bytes->isConstant())
      return std::nullopt;
    return PassedAllocation{bytes->integer, bytes->text, allocation->where, allocation->id, {}};
  }

  // A dim3 argument's axes as formulas of the values being read
  // (conditionsAroundCall's), where any has one.
  std::optional<PassedDims> passedDims(CXCursor argument) {
    if (!isDim3(clang_getCursorType(argument)))
      return std::nullopt;
    SiteValue axes[3];
    dimsOf(argument, axes);
    PassedDims passed;
    bool any = false;
    for (size_t i = 0; i < 3; ++i) {
      passed.texts[i] = axes[i].text;
      if (axes[i].isConstant() && !axes[i].isFloat)
        passed.axes[i] = Formula::constant(axes[i].integer);
      else if (axes[i].isFormula())
        passed.axes[i] = axes[i].formula;
      any |= passed.axes[i].has_value();
    }
    return any ? std::optional(std::move(passed)) : std::nullopt;
  }

  // The allocation a pointer argument points at the start of, where its
  // size is a formula of the values being read (conditionsAroundCall's).
  std::optional<PassedAllocation> sizedAllocation(CXCursor argument) {
    if (clang_getCanonicalType(clang_getCursorType(argument)).kind != CXType_Pointer)
      return std::nullopt;
    std::optional<CXCursor> offset;
    const Allocation *allocation = allocationOf(argument, offset);
    std::optional<SiteValue> bytes =
        allocation && !offset ? allocatedBytes(*allocation) : std::nullopt;
    if (!bytes || !bytes->isFormula())
      return std::nullopt;
    return PassedAllocation{0, bytes->text, allocation->where, allocation->id, bytes->formula};
  }

  // A launcher's parameter `argument` names: the allocation the call being
  // read passes it.
  std::optional<PassedAllocation> boundAllocationOf(CXCursor argument) const {
    CXCursor parameter = stripWrappers(argument);
    if (kindOf(parameter) != CXCursor_DeclRefExpr)
      return std::nullopt;
    auto passed = boundAllocations_.find(usrOf(clang_getCursorReferenced(parameter)));
    if (passed == boundAllocations_.end())
      return std::nullopt;
    return passed->second;
  }

  // What `bound` holds for the parameter an argument names as it is.
  static std::optional<CXCursor> boundThrough(CXCursor argument,
                                              const std::map<std::string, CXCursor> &bound) {
    CXCursor cursor = stripWrappers(argument);
    if (kindOf(cursor) != CXCursor_DeclRefExpr)
      return std::nullopt;
    auto found = bound.find(usrOf(clang_getCursorReferenced(cursor)));
    if (found == bound.end())
      return std::nullopt;
    return found->second;
  }

  // The name an argument gives a function by (`scale`, `&scale`): its
  // DeclRefExpr, when it is one.
  static std::optional<CXCursor> functionName(CXCursor argument) {
    CXCursor cursor = stripWrappers(argument);
    std::vector<CXCursor> operands = childrenOf(cursor);
    if (kindOf(cursor) == CXCursor_UnaryOperator &&
        clang_getCursorUnaryOperatorKind(cursor) == CXUnaryOperator_AddrOf && operands.size() == 1)
      cursor = stripWrappers(operands.front());
    CXCursorKind target = kindOf(clang_getCursorReferenced(cursor));
    if (kindOf(cursor) != CXCursor_DeclRefExpr ||
        (target != CXCursor_FunctionDecl && target != CXCursor_FunctionTemplate))
      return std::nullopt;
    return cursor;
  }

  // The runtime's calls that take a kernel and never launch it: occupancy
  // and function-attribute queries and settings.
  static bool neverLaunches(const std::string &callee) {
    return callee.starts_with("cudaOccupancy") || callee == "cudaFuncGetAttributes" ||
           callee == "cudaFuncSetAttribute" || callee == "cudaFuncSetCacheConfig" ||
           callee == "cudaFuncSetSharedMemConfig";
  }

  // Whether argument `index` of `call` is one the call cannot launch: an
  // argument of a runtime call that never launches (neverLaunches), or of a
  // function of the program's whose parameter there is only passed on to
  // such arguments (`analyze_occupancy("k", k)` calling
  // cudaOccupancyMaxPotentialBlockSize(..., kernel, ...)). A kernel named
  // only so is no kernel the program launches.
  bool inertArgument(CXCursor call, unsigned index, int depth = 0) {
    CXCursor callee = clang_getCursorReferenced(call);
    std::string name = clang_Cursor_isNull(callee) ? spellingOf(call) : spellingOf(callee);
    if (neverLaunches(name))
      return true;
    if (clang_Cursor_isNull(callee) || depth > 4)
      return false;
    CXCursor definition = clang_getCursorDefinition(callee);
    if (std::optional<LambdaCall> lambda = lambdaCalled(call)) {
      // The lambda's parameters, past the object the call passes first.
      if (index < lambda->firstArgument)
        return false;
      definition = lambda->lambda;
      index -= lambda->firstArgument;
    }
    if (clang_Cursor_isNull(definition))
      definition = clang_getCursorDefinition(clang_getSpecializedCursorTemplate(callee));
    if (clang_Cursor_isNull(definition) ||
        clang_Location_isInSystemHeader(clang_getCursorLocation(definition)))
      return false;
    std::vector<CXCursor> parameters = parametersOf(definition);
    if (index >= parameters.size())
      return false;
    std::string usr = usrOf(parameters[index]);
    int uses = 0, inert = 0;
    walk(definition, [&](CXCursor cursor) {
      if (kindOf(cursor) == CXCursor_DeclRefExpr && usrOf(clang_getCursorReferenced(cursor)) == usr)
        ++uses;
      if (kindOf(cursor) != CXCursor_CallExpr)
        return;
      for (int i = 0, n = clang_Cursor_getNumArguments(cursor); i < n; ++i) {
        CXCursor argument = stripWrappers(clang_Cursor_getArgument(cursor, unsigned(i)));
        if (kindOf(argument) == CXCursor_DeclRefExpr &&
            usrOf(clang_getCursorReferenced(argument)) == usr &&
            inertArgument(cursor, unsigned(i), depth + 1))
          ++inert;
      }
    });
    return uses == inert;
  }

  // The function an argument names as it is (`scale`, `&scale`), when
  // it is one.
  static std::optional<CXCursor> namedFunction(CXCursor argument) {
    std::optional<CXCursor> name = functionName(argument);
    CXCursor function = name ? clang_getCursorReferenced(*name) : clang_getNullCursor();
    if (!name || kindOf(function) != CXCursor_FunctionDecl)
      return std::nullopt;
    return function;
  }

  // A function of the program's an argument names (a launcher handed to
  // the function that calls it): its definition, or where another file of
  // the program defines it, its declaration (calls through it are then that
  // file's to read: externalCalls). A parameter the call being read binds
  // to a function, passed on as it is (`run(reduce, ...)` in a launcher
  // handed `reduce`), is that function.
  std::optional<CXCursor> passedFunction(CXCursor argument) const {
    if (std::optional<CXCursor> bound = boundThrough(argument, boundFunctions_))
      return bound;
    std::optional<CXCursor> function = namedFunction(argument);
    if (!function || isDeviceOnly(*function) ||
        clang_Location_isInSystemHeader(clang_getCursorLocation(*function)))
      return std::nullopt;
    CXCursor definition = clang_getCursorDefinition(*function);
    return clang_Cursor_isNull(definition) ? *function : definition;
  }

  // The kernel an argument names as it is (`scale`, `&scale`), or a
  // parameter bound to one passes on.
  std::optional<CXCursor> passedKernel(CXCursor argument) const {
    if (std::optional<CXCursor> bound = boundThrough(argument, boundKernels_))
      return bound;
    std::optional<CXCursor> function = namedFunction(argument);
    if (!function || !isKernel(*function))
      return std::nullopt;
    return function;
  }

  // A call of a function of the program's (a launcher), recorded with the
  // function whose body holds it.
  // In a counted loop (`for (j = 0; j < 6; ++j) run(..., block_sizes[j])`)
  // of few iterations, one call per iteration where they differ.
  void readCall(CXCursor call) {
    CallConditions conditions;
    auto record = [&](std::pair<std::string, LauncherCall> found) {
      addOwnConditions(found.second, conditions);
      callers_[found.first][found.second].insert(walkingFunction_);
      calls_[found.first].insert(std::move(found.second));
    };
    std::optional<std::pair<std::string, LauncherCall>> plain = launcherCallOf(call);
    if (!plain)
      return;
    conditions = conditionsAroundCall(call);
    conditionsAt_[placeOf(call)] = conditions;
    std::vector<CountedLoop> loops = countedLoopsAroundLaunch();
    std::optional<std::vector<int64_t>> values =
        loops.size() == 1 ? valuesOf(loops[0], kMostCalls) : std::nullopt;
    if (!values)
      return record(std::move(*plain));
    std::vector<std::pair<std::string, LauncherCall>> iterations;
    for (int64_t value : *values) {
      boundParameters_[loops[0].usr] = value;
      if (std::optional<std::pair<std::string, LauncherCall>> found = launcherCallOf(call))
        iterations.push_back(std::move(*found));
      boundParameters_.erase(loops[0].usr);
    }
    bool vary = std::any_of(iterations.begin(), iterations.end(), [&](const auto &found) {
      return found.second < plain->second || plain->second < found.second;
    });
    if (!vary || iterations.size() != values->size())
      return record(std::move(*plain));
    for (auto &found : iterations)
      record(std::move(found));
  }

  // The conditions that hold where `call`, the call walkHostCode is at, is
  // made (readConstraints' conditions around it), over the leaves they read:
  // integer variables and struct members it passes as they are (`for
  // (stride = 1024; stride < N; stride <<= 1) step(d, stride, N)`,
  // `run(o.iters)`) by their position, members of the structs it passes
  // (`run(opt)` after `if (opt.threads > 1024) exit(1);`) by position and
  // path, and any other variable by its key, which a lambda's launch reads
  // where it captures the variable.
  CallConditions conditionsAroundCall(CXCursor call) {
    std::map<std::string, uint32_t> outer = std::exchange(bound_, {});
    std::set<std::string> outerSearched = std::exchange(searchedKeys_, {});
    uint32_t outerNext = std::exchange(nextLeaf_, 0);
    std::map<std::string, std::string> passed, structs; // USR -> "#position"
    std::vector<CallSite::Variable> memberLeaves;
    std::vector<bool> asIs; // by parameter: the argument is a leaf or a struct
    unsigned first = firstParameterArgument(call);
    for (unsigned i = first, n = unsigned(clang_Cursor_getNumArguments(call)); i < n; ++i) {
      CXCursor argument = clang_Cursor_getArgument(call, i);
      std::string position = "#" + std::to_string(i - first);
      asIs.push_back(true);
      if (std::optional<std::string> usr = leafVariable(argument)) {
        passed.emplace(*usr, position);
        bound_[*usr] = nextLeaf_++;
      } else if (std::optional<CXCursor> variable = structNamed(argument)) {
        structs.emplace(usrOf(*variable), position);
        // A member the caller set (`s.n = atoi(argv[3]);`, `s.n = n;`): the
        // member's leaf, read for the member or for the variable set there.
        std::vector<FieldPath> fields;
        leafFieldsOf(clang_getCursorType(*variable), "", fields);
        for (const FieldPath &field : fields) {
          std::optional<CXCursor> value = isIntegerOrEnum(clang_getCanonicalType(field.type).kind)
                                              ? memberValueAt(*variable, field.path)
                                              : std::nullopt;
          std::optional<std::string> source = value ? leafVariable(*value) : std::nullopt;
          std::string key = source ? *source : usrOf(*variable) + "." + field.path;
          if (!value || bound_.count(key))
            continue;
          passed.emplace(key, position + "." + field.path);
          memberLeaves.push_back(
              leafOfType(spellingOf(*variable) + "." + field.path, nextLeaf_, field.type));
          bound_[key] = nextLeaf_++;
        }
      } else if (std::optional<MemberPath> member = memberPathOf(argument, true)) {
        // `run(o.iters)`: the member's leaf, where the conditions read it.
        passed.emplace(usrOf(member->variable) + "." + member->path, position);
      } else {
        asIs.back() = false;
      }
    }
    CallSite context;
    CallSite *outerSite = std::exchange(variablesOf_, &context);
    readConstraints(context);
    std::vector<std::optional<PassedAllocation>> allocations;
    std::vector<std::optional<PassedDims>> dims;
    std::vector<std::optional<Formula>> values;
    for (unsigned i = first, n = unsigned(clang_Cursor_getNumArguments(call)); i < n; ++i) {
      CXCursor argument = clang_Cursor_getArgument(call, i);
      allocations.push_back(sizedAllocation(argument));
      dims.push_back(passedDims(argument));
      std::optional<Formula> value =
          !asIs[i - first] &&
                  isIntegerOrEnum(clang_getCanonicalType(clang_getCursorType(argument)).kind)
              ? formulaOf(argument, 0)
              : std::nullopt;
      values.push_back(value && !value->arguments().empty() ? value : std::nullopt);
    }
    // Before the leaves are counted: it may add some.
    std::map<std::string, Formula> members = constructedMembers(call);
    CallConditions conditions{std::move(context.constraints),
                              std::vector<std::string>(nextLeaf_),
                              std::move(allocations),
                              std::move(dims),
                              std::move(values),
                              std::move(memberLeaves),
                              std::move(members)};
    conditions.leafVariables.insert(conditions.leafVariables.end(), context.variables.begin(),
                                    context.variables.end());
    for (const auto &[key, index] : bound_) {
      std::string &leaf = conditions.leaves[index];
      leaf = key;
      if (auto position = passed.find(key); position != passed.end())
        leaf = position->second;
      for (const auto &[usr, position] : structs)
        if (key.size() > usr.size() && key.compare(0, usr.size(), usr) == 0 &&
            key[usr.size()] == '.')
          leaf = position + key.substr(usr.size());
    }
    variablesOf_ = outerSite;
    nextLeaf_ = outerNext;
    bound_ = std::move(outer);
    searchedKeys_ = std::move(outerSearched);
    return conditions;
  }

  // A method's call on a local object (`s.run()`) that a constructor call
  // made (`Solver s(n, 256);`, `new Solver(n, 256)`): the integer fields
  // that constructor sets, in its initializer list (`n(size)`) or as a
  // statement of its body (`n = size;`), and its parameters, as formulas of
  // the values being read, its parameters being the call's arguments.
  std::map<std::string, Formula> constructedMembers(CXCursor call) {
    std::map<std::string, Formula> members;
    std::vector<CXCursor> children = childrenOf(call);
    if (children.empty() || kindOf(children.front()) != CXCursor_MemberRefExpr ||
        kindOf(clang_getCursorReferenced(call)) != CXCursor_CXXMethod)
      return members;
    std::vector<CXCursor> object = childrenOf(children.front());
    std::optional<CXCursor> variable = object.size() == 1 ? namedAsIs(object[0]) : std::nullopt;
    if (!variable || kindOf(*variable) != CXCursor_VarDecl || reassigned_.count(usrOf(*variable)))
      return members;
    CXCursor construct = stripWrappers(clang_Cursor_getVarDeclInitializer(*variable));
    // `Solver *s = new Solver(n); s->run();`: the object `new` made.
    if (std::vector<CXCursor> made = childrenOf(construct);
        kindOf(construct) == CXCursor_CXXNewExpr && !made.empty())
      construct = stripWrappers(made.back());
    CXCursor constructor = clang_getCursorDefinition(clang_getCursorReferenced(construct));
    if (clang_Cursor_isNull(constructor) || kindOf(constructor) != CXCursor_Constructor)
      return members;
    // Its parameters as the call's arguments; one with none, unknown.
    constexpr uint32_t kUnknown = ~0u;
    std::map<std::string, Formula> parameters;
    std::vector<CXCursor> fields, values;
    int argumentCount = clang_Cursor_getNumArguments(construct);
    for (CXCursor child : childrenOf(constructor)) {
      CXCursorKind kind = kindOf(child);
      if (kind == CXCursor_ParmDecl) {
        auto position = int(parameters.size());
        std::optional<Formula> passed =
            position < argumentCount
                ? formulaOf(clang_Cursor_getArgument(construct, unsigned(position)), 0)
                : std::nullopt;
        parameters.emplace(usrOf(child), passed ? *passed : Formula::argument(kUnknown));
      } else if (kind == CXCursor_MemberRef) {
        fields.push_back(clang_getCursorReferenced(child));
      } else if (kind != CXCursor_CompoundStmt && fields.size() > values.size()) {
        values.push_back(child); // the initializer of the member just named
      } else if (kind == CXCursor_CompoundStmt) {
        for (CXCursor statement : childrenOf(child)) {
          std::vector<CXCursor> sides = childrenOf(statement);
          if (kindOf(statement) != CXCursor_BinaryOperator ||
              clang_getCursorBinaryOperatorKind(statement) != CXBinaryOperator_Assign ||
              sides.size() != 2)
            continue;
          if (std::optional<CXCursor> field = ownField(sides[0])) {
            fields.push_back(*field);
            values.push_back(sides[1]);
          }
        }
      }
    }
    auto known = [&](const Formula &value) {
      std::vector<uint32_t> read = value.arguments();
      return !std::count(read.begin(), read.end(), kUnknown);
    };
    // Its parameters too, as the sizes its allocations read (`cudaMalloc(&d_,
    // size * sizeof(float))`).
    for (const auto &[parameter, value] : parameters)
      if (known(value))
        members.emplace(parameter, value);
    std::map<std::string, Formula> outer = std::exchange(helperParameters_, parameters);
    for (size_t i = 0; i < fields.size() && i < values.size(); ++i) {
      std::string usr = usrOf(fields[i]);
      if (!isIntegerOrEnum(clang_getCanonicalType(clang_getCursorType(fields[i])).kind))
        continue;
      // The last value set holds; one of an unknown value, nothing.
      std::optional<Formula> value = formulaOf(values[i], 0);
      if (value && known(*value))
        members.insert_or_assign(usr, std::move(*value));
      else
        members.erase(usr);
    }
    helperParameters_ = std::move(outer);
    return members;
  }

  // The field of the object a method runs on that `expression` names (`n`,
  // `this->n`), where it names one.
  static std::optional<CXCursor> ownField(CXCursor expression) {
    CXCursor cursor = stripWrappers(expression);
    if (kindOf(cursor) != CXCursor_MemberRefExpr ||
        kindOf(clang_getCursorReferenced(cursor)) != CXCursor_FieldDecl)
      return std::nullopt;
    std::vector<CXCursor> base = childrenOf(cursor);
    if (!base.empty() && kindOf(stripWrappers(base[0])) != CXCursor_CXXThisExpr)
      return std::nullopt;
    return clang_getCursorReferenced(cursor);
  }

  // The struct variable or parameter an argument names as it is (`opt`,
  // passed by value or by reference), whose members the called function
  // reads as the caller's.
  static std::optional<CXCursor> structNamed(CXCursor argument) {
    std::optional<CXCursor> named = namedAsIs(argument);
    if (!named)
      return std::nullopt;
    CXCursor variable = *named;
    CXType type = clang_getCursorType(variable);
    if (type.kind == CXType_LValueReference || type.kind == CXType_RValueReference)
      type = clang_getPointeeType(type);
    if (!isStruct(type))
      return std::nullopt;
    return variable;
  }

  // `expression` without its wrappers and a copy or move constructor's call
  // around it (a struct or dim3 passed or initialized by value).
  static CXCursor withoutCopy(CXCursor expression) {
    CXCursor cursor = stripWrappers(expression);
    if (kindOf(cursor) == CXCursor_CallExpr && clang_Cursor_getNumArguments(cursor) == 1 &&
        kindOf(clang_getCursorReferenced(cursor)) == CXCursor_Constructor)
      cursor = stripWrappers(clang_Cursor_getArgument(cursor, 0));
    return cursor;
  }

  // The variable or parameter an argument names as it is.
  static std::optional<CXCursor> namedAsIs(CXCursor argument) {
    CXCursor cursor = withoutCopy(argument);
    if (kindOf(cursor) != CXCursor_DeclRefExpr)
      return std::nullopt;
    CXCursor variable = clang_getCursorReferenced(cursor);
    if (kindOf(variable) != CXCursor_VarDecl && kindOf(variable) != CXCursor_ParmDecl)
      return std::nullopt;
    return variable;
  }

  // The variable an integer argument passes as it is where nothing knows its
  // value (`n`; not `256`, `n + 1`, nor a variable its initializer fixes):
  // a leaf of the formulas read there.
  std::optional<std::string> leafVariable(CXCursor argument) {
    CXCursor variable = stripWrappers(argument);
    CXTypeKind type = clang_getCanonicalType(clang_getCursorType(variable)).kind;
    bool integer = type >= CXType_Bool && type <= CXType_Int128 && type != CXType_Char16 &&
                   type != CXType_Char32 && type != CXType_WChar;
    if (!integer || kindOf(variable) != CXCursor_DeclRefExpr || folded(argument, "") ||
        formulaOf(variable, 0))
      return std::nullopt;
    // A cudaMallocPitch output is its width padded (pitchAtLaunch), which
    // may read the host's searched variables: no leaf of its own.
    std::string usr = usrOf(clang_getCursorReferenced(variable));
    if (pitchOutputs_.count(usr))
      return std::nullopt;
    return usr;
  }

  // Whether a plain variable an argument passes has for value, where the
  // launch's variables are searched, a formula of other searched values
  // than itself (`bytes = std::max(floorPow2(opt.bytes), 4096)`, `elements
  // = bytes / 16`): then that formula is what it passes, not a leaf of its
  // own chosen apart from them. Read without a trace: the leaves it needed
  // are added when the argument is read.
  bool derivedFromSearched(CXCursor argument, CallSite &site) {
    CallSite *outerSite = std::exchange(variablesOf_, &site);
    size_t variables = site.variables.size();
    uint32_t next = nextLeaf_;
    std::map<std::string, uint32_t> bound = bound_;
    std::set<std::string> searched = searchedKeys_;
    std::optional<Formula> formula = formulaOf(argument, 0);
    bool derived = formula && !formula->arguments().empty() &&
                   !(formula->nodes.size() == 1 && formula->nodes[0].op == Formula::Op::Argument);
    site.variables.resize(variables);
    nextLeaf_ = next;
    bound_ = std::move(bound);
    searchedKeys_ = std::move(searched);
    variablesOf_ = outerSite;
    return derived;
  }

  // The conditions of the call of the launcher being read (boundConditions_)
  // all of whose leaves the launch reads, over the launch's leaves.
  void addCallConditions(CallSite &site) {
    for (const CallSite::Constraint &condition : boundConditions_)
      if (std::optional<Formula> holds = overBoundLeaves(condition.holds))
        site.constraints.push_back({std::move(*holds), condition.text});
  }

  // A formula over the leaves of the bound call's conditions
  // (boundConditionLeaves_) over the launch's leaves instead; nothing when
  // the launch does not read one of them.
  std::optional<Formula> overBoundLeaves(const Formula &formula) {
    return substitute(formula, [&](uint32_t index) { return boundLeafAtLaunch(index); });
  }

  // Leaf `index` of the bound call's conditions as the launch reads it.
  std::optional<Formula> boundLeafAtLaunch(uint32_t index) {
    std::optional<std::string> key = boundLeafKey(index);
    if (auto leaf = key ? bound_.find(*key) : bound_.end(); leaf != bound_.end())
      return Formula::argument(leaf->second);
    // A parameter (not a member of one) the launch has not read yet: what
    // the launch reads for it (`run(dim3(n / 256), ..., n)` read before n).
    const std::string &name = boundConditionLeaves_[index];
    if (!key || name[0] != '#' || name.find('.') != std::string::npos)
      return std::nullopt;
    return formulaOfVariable(boundParameterCursors_[leafPosition(name)], 0);
  }

  // A formula the bound call passes for a parameter (boundFormulas_) over
  // the launch's leaves: a leaf the launch reads nothing for yet becomes a
  // variable of its own, the caller's (`n` of `run(d, 2 * n)`), on which the
  // call's conditions then hold.
  std::optional<Formula> boundFormulaAtLaunch(const Formula &formula) {
    return substitute(formula, [&](uint32_t index) -> std::optional<Formula> {
      if (std::optional<Formula> read = boundLeafAtLaunch(index))
        return read;
      std::optional<std::string> key = boundLeafKey(index);
      auto leaf = std::find_if(boundLeafVariables_.begin(), boundLeafVariables_.end(),
                               [&](const CallSite::Variable &v) { return v.index == index; });
      if (!key || leaf == boundLeafVariables_.end() || !variablesOf_ || commandLineOnly_)
        return std::nullopt;
      return addedLeaf(*key, *leaf);
    });
  }

  // The dim3 a launcher's parameter `argument` names was passed (boundDims_).
  std::optional<PassedDims> boundDimsOf(CXCursor argument) const {
    std::optional<CXCursor> parameter = boundDims_.empty() ? std::nullopt : namedAsIs(argument);
    if (!parameter)
      return std::nullopt;
    auto passed = boundDims_.find(usrOf(*parameter));
    if (passed == boundDims_.end())
      return std::nullopt;
    return passed->second;
  }

  // The key in the launcher being read of leaf `index` of its call's
  // conditions (LauncherCall::conditionLeaves): its parameter's USR (with
  // the member's path) or the caller's variable's key as it is. Nothing for
  // a parameter the launcher changes.
  std::optional<std::string> boundLeafKey(uint32_t index) const {
    if (index >= boundConditionLeaves_.size() || boundConditionLeaves_[index].empty())
      return std::nullopt;
    const std::string &leaf = boundConditionLeaves_[index];
    if (leaf[0] != '#')
      return leaf;
    std::optional<std::string> parameter = boundParameterOf(leaf);
    return parameter ? std::optional(*parameter + memberSuffix(leaf)) : std::nullopt;
  }

  // The USR of the parameter a "#2" or "#2.path" leaf names, unless the
  // launcher changes it.
  std::optional<std::string> boundParameterOf(const std::string &leaf) const {
    size_t position = leafPosition(leaf);
    if (position >= boundParameterUsrs_.size() || boundParameterUsrs_[position].empty())
      return std::nullopt;
    return boundParameterUsrs_[position];
  }
  // The parameter's position a "#2" or "#2.path" leaf names.
  static size_t leafPosition(const std::string &leaf) {
    return std::stoul(leaf.substr(1, leaf.find('.') - 1));
  }
  static std::string memberSuffix(const std::string &leaf) {
    size_t dot = leaf.find('.');
    return dot == std::string::npos ? "" : leaf.substr(dot);
  }

  // The leaves of the bound call's conditions as `call`, a call in the
  // launcher's body, passes them on: a parameter (or its member) the call
  // passes as it is becomes that argument's position; other variables keep
  // their keys, and so does a parameter it does not pass as it is (the
  // launch reads it only through a formula the call passes: `inner(m /
  // 4)`); a parameter the launcher changes is lost (empty).
  std::vector<std::string> forwardedLeaves(CXCursor call) const {
    std::vector<std::string> leaves;
    for (const std::string &leaf : boundConditionLeaves_) {
      bool parameterLeaf = !leaf.empty() && leaf[0] == '#';
      std::optional<std::string> parameter = parameterLeaf ? boundParameterOf(leaf) : std::nullopt;
      std::string forwarded = !parameterLeaf ? leaf
                              : parameter    ? *parameter + memberSuffix(leaf)
                                             : "";
      unsigned first = firstParameterArgument(call);
      for (unsigned a = first, n = unsigned(clang_Cursor_getNumArguments(call)); a < n && parameter;
           ++a) {
        std::optional<CXCursor> named = namedAsIs(clang_Cursor_getArgument(call, a));
        if (named && usrOf(*named) == *parameter) {
          forwarded = "#" + std::to_string(a - first) + memberSuffix(leaf);
          break;
        }
      }
      leaves.push_back(std::move(forwarded));
    }
    return leaves;
  }

  // A call of a function of the program's: the USR calls_ names the function
  // by, its template arguments, and the integer arguments it passes that are
  // constants (with a launcher's parameters as the call being read binds
  // them).
  std::optional<std::pair<std::string, LauncherCall>> launcherCallOf(CXCursor call) {
    // Its arguments as they are where it is made (`n *= 2; run(n);`).
    unsigned outer = std::exchange(launchOffset_, offsetOf(call));
    std::optional<std::pair<std::string, LauncherCall>> found = launcherCallHere(call);
    launchOffset_ = outer;
    return found;
  }

  // A call of a lambda the program keeps in a variable (`auto run = [&](int
  // blocks) { k<<<blocks, 256>>>(d, n); }; run(4);`, generic ones too): a
  // launcher as a function is. The lambda, the key calls_ names it by, and
  // the call's first argument that is the lambda's (the operator's call
  // passes the object first).
  struct LambdaCall {
    CXCursor lambda;
    std::string key;
    unsigned firstArgument;
  };
  std::optional<LambdaCall> lambdaCalled(CXCursor call) const {
    if (spellingOf(clang_getCursorReferenced(call)) != "operator()")
      return std::nullopt;
    for (CXCursor child : childrenOf(call)) {
      CXCursor callee = stripWrappers(child);
      if (kindOf(callee) != CXCursor_DeclRefExpr)
        continue;
      CXCursor variable = clang_getCursorReferenced(callee);
      if (kindOf(variable) != CXCursor_VarDecl)
        continue;
      CXCursor held = clang_Cursor_getVarDeclInitializer(variable);
      if (clang_Cursor_isNull(held) || kindOf(stripWrappers(held)) != CXCursor_LambdaExpr ||
          modified_.count(usrOf(variable)))
        return std::nullopt;
      CXCursor lambda = stripWrappers(held);
      auto parameters = unsigned(parametersOf(lambda).size());
      auto arguments = unsigned(clang_Cursor_getNumArguments(call));
      if (arguments != parameters && arguments != parameters + 1)
        return std::nullopt;
      return LambdaCall{lambda, lambdaKey(lambda), arguments - parameters};
    }
    return std::nullopt;
  }

  // The argument of `call` that its function's first parameter takes: 1 for
  // a lambda's operator() called with the object first, else 0.
  unsigned firstParameterArgument(CXCursor call) const {
    std::optional<LambdaCall> lambda = lambdaCalled(call);
    return lambda ? lambda->firstArgument : 0;
  }

  static std::string lambdaKey(CXCursor lambda) { return "lambda@" + placeOf(lambda); }

  // Where `cursor` is written: "file:offset".
  static std::string placeOf(CXCursor cursor) {
    CXFile file = nullptr;
    unsigned offset = 0;
    clang_getExpansionLocation(clang_getCursorLocation(cursor), &file, nullptr, nullptr, &offset);
    return (file ? take(clang_getFileName(file)) : "") + ":" + std::to_string(offset);
  }

  // launcherCallOf's reading, at the launch offset its caller set.
  std::optional<std::pair<std::string, LauncherCall>> launcherCallHere(CXCursor call) {
    CXCursor function = clang_getCursorReferenced(call);
    std::optional<LambdaCall> lambda = lambdaCalled(call);
    // A call through a parameter the call being read binds to a function,
    // with an argument for each of its parameters (not a pack forwarded).
    if (auto passed = boundFunctions_.find(usrOf(function)); passed != boundFunctions_.end()) {
      if (clang_Cursor_getNumArguments(call) != clang_Cursor_getNumArguments(passed->second))
        return std::nullopt;
      function = passed->second;
    }
    // A member function too (`manager.launch((void *)k, grid, block,
    // args)`): its parameters are the call's arguments, the object aside.
    if (!lambda &&
        ((kindOf(function) != CXCursor_FunctionDecl && kindOf(function) != CXCursor_CXXMethod) ||
         clang_Location_isInSystemHeader(clang_getCursorLocation(function))))
      return std::nullopt;
    CXCursor pattern =
        lambda ? clang_getNullCursor() : clang_getSpecializedCursorTemplate(function);
    bool specialization =
        !clang_Cursor_isNull(pattern) && kindOf(pattern) == CXCursor_FunctionTemplate;
    LauncherCall launcherCall;
    if (specialization) {
      launcherCall.templateArguments = templateArgumentsOf(function);
      // A template or pack argument ("?") is not followed.
      if (launcherCall.templateArguments.empty() ||
          std::count(launcherCall.templateArguments.begin(),
                     launcherCall.templateArguments.end(), "?"))
        return std::nullopt;
    }
    for (int i = lambda ? int(lambda->firstArgument) : 0, n = clang_Cursor_getNumArguments(call);
         i < n; ++i) {
      CXCursor argument = clang_Cursor_getArgument(call, unsigned(i));
      std::optional<SiteValue> constant = folded(argument, "");
      std::optional<Formula> formula = constant ? std::nullopt : formulaOf(argument, 0);
      std::optional<double> real = constant && constant->isFloat ? constant->real
                                   : constant                    ? std::nullopt
                                                                 : realOf(argument, 0);
      if (constant && !constant->isFloat)
        launcherCall.values.push_back(constant->integer);
      else if (formula && formula->arguments().empty()) // `B * T` of two constants
        launcherCall.values.push_back(evaluate(*formula, {}));
      else if (real && isIntegerOrEnum(clang_getCanonicalType(clang_getCursorType(argument)).kind))
        // A float passed where an integer is expected (`float length = 512;
        // scan(d, length)`).
        launcherCall.values.push_back(convertedToInteger(*real));
      else
        launcherCall.values.push_back(std::nullopt);
      CXCursor passedName = stripWrappers(argument);
      launcherCall.literal.push_back(
          (constant && !constant->isFloat) ||
          (kindOf(passedName) == CXCursor_DeclRefExpr &&
           boundParameters_.count(usrOf(clang_getCursorReferenced(passedName))) &&
           !boundByPlainRun_.count(usrOf(clang_getCursorReferenced(passedName)))));
      launcherCall.reals.push_back(real);
      launcherCall.allocations.push_back(passedAllocation(argument));
      launcherCall.dims.push_back(boundDimsOf(argument));
      std::optional<CXCursor> kernel = passedKernel(argument);
      launcherCall.kernels.push_back(kernel ? usrOf(*kernel) : std::string());
      if (kernel)
        passedKernels_.emplace(usrOf(*kernel), *kernel);
      std::optional<CXCursor> passed = kernel ? std::nullopt : passedFunction(argument);
      launcherCall.functions.push_back(passed ? usrOf(*passed) : std::string());
      if (passed)
        passedFunctions_.emplace(usrOf(*passed), *passed);
      std::optional<CXCursor> array = argumentArrayNamed(argument);
      launcherCall.argumentArrays.push_back(array ? usrOf(*array) : std::string());
      if (array)
        passedArrays_.emplace(usrOf(*array), *array);
    }
    if (lambda) {
      definitions_.emplace(lambda->key, lambda->lambda);
      return std::pair{lambda->key, std::move(launcherCall)};
    }
    CXCursor called = specialization ? pattern : function;
    std::string usr = usrOf(called);
    definitions_.emplace(usr, clang_getCursorDefinition(called));
    return std::pair{std::move(usr), std::move(launcherCall)};
  }

  // Launchers calling launchers (`forward(kernel_num, ..., C, block_size)`
  // calling `forward5(..., C, block_size)`, which launches): the calls in a
  // launcher's body pass what its own calls bind. A launcher whose calls
  // bind something has its body's calls read once per call of its own, and
  // those replace the calls read from its body plainly; then the launchers
  // it calls, a few levels down.
  void propagateLauncherCalls() {
    constexpr int kLevels = 4;
    std::set<std::string> done;
    for (int level = 0; level < kLevels; ++level) {
      std::vector<std::string> launchers;
      for (const auto &[usr, calls] : calls_)
        if (!done.count(usr) && calls.size() <= kMostCalls && definitions_.count(usr) &&
            std::any_of(calls.begin(), calls.end(), bindsSomething))
          launchers.push_back(usr);
      if (launchers.empty())
        return;
      for (const std::string &usr : launchers) {
        done.insert(usr);
        CXCursor definition = definitions_.at(usr);
        if (clang_Cursor_isNull(definition))
          continue;
        std::map<std::string, std::set<LauncherCall>> bound;
        bool everyCall = true;
        for (const LauncherCall &call : std::set<LauncherCall>(calls_.at(usr))) {
          everyCall = bindCall(definition, call);
          if (everyCall)
            collectCalls(definition, bound);
          unbindCall();
          if (!everyCall)
            break;
        }
        if (!everyCall)
          continue;
        for (auto &[callee, callers] : callers_)
          for (auto it = callers.begin(); it != callers.end();) {
            if (it->second.erase(usr) && it->second.empty()) {
              calls_[callee].erase(it->first);
              it = callers.erase(it);
            } else {
              ++it;
            }
          }
        for (auto &[callee, calls] : bound)
          for (const LauncherCall &call : calls) {
            callers_[callee][call].insert(usr);
            calls_[callee].insert(call);
          }
      }
    }
  }

  static bool bindsSomething(const LauncherCall &call) {
    return !call.templateArguments.empty() ||
           std::any_of(call.values.begin(), call.values.end(),
                       [](const auto &value) { return value.has_value(); }) ||
           std::any_of(call.reals.begin(), call.reals.end(),
                       [](const auto &value) { return value.has_value(); }) ||
           std::any_of(call.allocations.begin(), call.allocations.end(),
                       [](const auto &allocation) { return allocation.has_value(); }) ||
           std::any_of(call.dims.begin(), call.dims.end(),
                       [](const auto &dims) { return dims.has_value(); }) ||
           std::any_of(call.formulas.begin(), call.formulas.end(),
                       [](const auto &formula) { return formula.has_value(); }) ||
           !call.members.empty() ||
           std::any_of(call.kernels.begin(), call.kernels.end(),
                       [](const std::string &kernel) { return !kernel.empty(); }) ||
           std::any_of(call.functions.begin(), call.functions.end(),
                       [](const std::string &function) { return !function.empty(); }) ||
           std::any_of(call.argumentArrays.begin(), call.argumentArrays.end(),
                       [](const std::string &array) { return !array.empty(); }) ||
           !call.conditions.empty();
  }

  // What holds around a call (`own`, read in the walk) added to what the
  // call passes (`passed`: for a call in a launcher's body, what its bound
  // call passes on): the conditions, and the allocations and dim3s `passed`
  // says nothing of, their leaves after the passed ones (none for a call
  // read in the walk itself).
  static void addOwnConditions(LauncherCall &passed, const CallConditions &own) {
    auto shift = uint32_t(passed.conditionLeaves.size());
    auto shifted = [&](Formula formula) {
      for (Formula::Node &node : formula.nodes)
        if (node.op == Formula::Op::Argument)
          node.argument += shift;
      return formula;
    };
    for (const CallSite::Constraint &condition : own.constraints)
      passed.conditions.push_back({shifted(condition.holds), condition.text});
    for (size_t i = 0; i < passed.allocations.size() && i < own.allocations.size(); ++i)
      if (!passed.allocations[i] && own.allocations[i]) {
        passed.allocations[i] = own.allocations[i];
        passed.allocations[i]->sized = shifted(*own.allocations[i]->sized);
      }
    for (size_t i = 0; i < passed.dims.size() && i < own.dims.size(); ++i)
      if (!passed.dims[i] && own.dims[i]) {
        passed.dims[i] = own.dims[i];
        for (std::optional<Formula> &axis : passed.dims[i]->axes)
          if (axis)
            axis = shifted(*axis);
      }
    passed.formulas.resize(passed.values.size());
    for (size_t i = 0; i < passed.values.size() && i < own.values.size(); ++i)
      if (!passed.values[i] && !passed.formulas[i] && own.values[i])
        passed.formulas[i] = shifted(*own.values[i]);
    for (CallSite::Variable leaf : own.leafVariables) {
      leaf.index += shift;
      passed.leafVariables.push_back(std::move(leaf));
    }
    for (const auto &[field, value] : own.members)
      passed.members.emplace(field, shifted(value));
    passed.conditionLeaves.insert(passed.conditionLeaves.end(), own.leaves.begin(),
                                  own.leaves.end());
  }

  // In `passed`, a call in the body of the launcher being read: each leaf
  // that is a parameter the bound call passes a formula (`inner(m / 4)`
  // with `outer(d, 4 * n)` bound) replaced by that formula, over the bound
  // call's leaves, which `passed` forwards first, in order.
  void passOnBoundFormulas(LauncherCall &passed) const {
    auto through = [&](const Formula &formula) {
      return *substitute(formula, [&](uint32_t index) {
        auto bound = index < passed.conditionLeaves.size()
                         ? boundFormulas_.find(passed.conditionLeaves[index])
                         : boundFormulas_.end();
        return bound != boundFormulas_.end() ? bound->second : Formula::argument(index);
      });
    };
    for (CallSite::Constraint &condition : passed.conditions)
      condition.holds = through(condition.holds);
    for (std::optional<Formula> &formula : passed.formulas)
      if (formula)
        formula = through(*formula);
    for (auto &[field, value] : passed.members)
      value = through(value);
    for (std::optional<PassedAllocation> &allocation : passed.allocations)
      if (allocation && allocation->sized)
        allocation->sized = through(*allocation->sized);
    for (std::optional<PassedDims> &dims : passed.dims)
      if (dims)
        for (std::optional<Formula> &axis : dims->axes)
          if (axis)
            axis = through(*axis);
  }

  // The calls of the program's functions below `cursor`.
  void collectCalls(CXCursor cursor, std::map<std::string, std::set<LauncherCall>> &found) {
    if (kindOf(cursor) == CXCursor_CallExpr)
      if (std::optional<std::pair<std::string, LauncherCall>> call = launcherCallOf(cursor)) {
        // The bound call's conditions as this call passes them on, and the
        // conditions around this call in the launcher's body.
        LauncherCall &passed = call->second;
        passed.conditions = boundConditions_;
        passed.conditionLeaves = forwardedLeaves(cursor);
        passed.leafVariables = boundLeafVariables_;
        if (auto own = conditionsAt_.find(placeOf(cursor)); own != conditionsAt_.end())
          addOwnConditions(passed, own->second);
        passOnBoundFormulas(passed);
        found[call->first].insert(std::move(passed));
      }
    // Not the branch of an `if` no run takes (`if (kOff && ...)`).
    std::optional<CXCursor> dead = deadInEveryRun(cursor);
    for (CXCursor child : childrenOf(cursor))
      if (!dead || !clang_equalCursors(child, *dead))
        collectCalls(child, found);
  }

  // Reads the launcher `function` for one `call`: its template parameters
  // bound to the call's arguments (by name, and by USR where they are
  // integers), its integer parameters to the constants it passes, its
  // pointer parameters to the allocations and its function-pointer
  // parameters to the kernels. False (nothing bound) when the call's
  // template arguments do not fit.
  bool bindCall(CXCursor function, const LauncherCall &call) {
    std::vector<CXCursor> templateParameters, parameters;
    for (CXCursor child : childrenOf(function)) {
      CXCursorKind childKind = kindOf(child);
      if (childKind == CXCursor_TemplateTypeParameter ||
          childKind == CXCursor_NonTypeTemplateParameter ||
          childKind == CXCursor_TemplateTemplateParameter)
        templateParameters.push_back(child);
      else if (childKind == CXCursor_ParmDecl)
        parameters.push_back(child);
    }
    if (call.templateArguments.size() != templateParameters.size())
      return false;
    for (size_t i = 0; i < templateParameters.size(); ++i) {
      boundNames_.push_back({spellingOf(templateParameters[i]), call.templateArguments[i]});
      const std::string &text = call.templateArguments[i];
      int64_t value = 0;
      auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (kindOf(templateParameters[i]) == CXCursor_NonTypeTemplateParameter &&
          error == std::errc() && end == text.data() + text.size())
        boundParameters_[usrOf(templateParameters[i])] = value;
    }
    for (size_t i = 0; i < parameters.size() && i < call.values.size(); ++i)
      if (call.values[i]) {
        boundParameters_[usrOf(parameters[i])] = *call.values[i];
        if (i >= call.literal.size() || !call.literal[i])
          boundByPlainRun_.insert(usrOf(parameters[i]));
      }
    for (size_t i = 0; i < parameters.size() && i < call.reals.size(); ++i)
      if (call.reals[i])
        boundReals_[usrOf(parameters[i])] = *call.reals[i];
    for (size_t i = 0; i < parameters.size() && i < call.allocations.size(); ++i)
      if (call.allocations[i] && !modified_.count(usrOf(parameters[i])))
        boundAllocations_[usrOf(parameters[i])] = *call.allocations[i];
    for (size_t i = 0; i < parameters.size() && i < call.dims.size(); ++i)
      if (call.dims[i] && !modified_.count(usrOf(parameters[i])))
        boundDims_[usrOf(parameters[i])] = *call.dims[i];
    for (size_t i = 0; i < parameters.size() && i < call.formulas.size(); ++i)
      if (call.formulas[i] && !modified_.count(usrOf(parameters[i])))
        boundFormulas_[usrOf(parameters[i])] = *call.formulas[i];
    boundLeafVariables_ = call.leafVariables;
    // Not a field the program changes outside its constructors.
    for (const auto &[field, value] : call.members)
      if (!modifiedFields_.count(field))
        boundMembers_.emplace(field, value);
    for (size_t i = 0; i < parameters.size() && i < call.kernels.size(); ++i)
      if (!call.kernels[i].empty() && !modified_.count(usrOf(parameters[i])))
        boundKernels_[usrOf(parameters[i])] = passedKernels_.at(call.kernels[i]);
    for (size_t i = 0; i < parameters.size() && i < call.functions.size(); ++i)
      if (!call.functions[i].empty() && !modified_.count(usrOf(parameters[i])))
        boundFunctions_[usrOf(parameters[i])] = passedFunctions_.at(call.functions[i]);
    for (size_t i = 0; i < parameters.size() && i < call.argumentArrays.size(); ++i)
      if (!call.argumentArrays[i].empty() && !modified_.count(usrOf(parameters[i])))
        boundArrays_[usrOf(parameters[i])] = passedArrays_.at(call.argumentArrays[i]);
    // A parameter the launcher changes no longer holds what the call passed.
    boundConditions_ = call.conditions;
    boundConditionLeaves_ = call.conditionLeaves;
    for (const CXCursor &parameter : parameters) {
      boundParameterUsrs_.push_back(modified_.count(usrOf(parameter)) ? "" : usrOf(parameter));
      boundParameterCursors_.push_back(parameter);
    }
    return true;
  }

  void unbindCall() {
    boundNames_.clear();
    boundParameters_.clear();
    boundAllocations_.clear();
    boundKernels_.clear();
    boundFunctions_.clear();
    boundArrays_.clear();
    boundReals_.clear();
    boundConditions_.clear();
    boundConditionLeaves_.clear();
    boundParameterUsrs_.clear();
    boundParameterCursors_.clear();
    boundDims_.clear();
    boundFormulas_.clear();
    boundLeafVariables_.clear();
    boundMembers_.clear();
    boundByPlainRun_.clear();
  }

  bool nothingBound() const {
    return boundNames_.empty() && boundParameters_.empty() && boundAllocations_.empty() &&
           boundDims_.empty() && boundFormulas_.empty() && boundMembers_.empty() &&
           boundKernels_.empty() && boundFunctions_.empty() && boundArrays_.empty() &&
           boundReals_.empty() && boundConditions_.empty();
  }

  // The launches below `cursor`. A function the host code calls (a launcher,
  // templated or not) is read once per distinct call: its template
  // parameters and the integer parameters a call passes as constants are
  // those values in its launches.
  void readLaunchesIn(CXCursor cursor, std::vector<CallSite> &sites) {
    CXCursorKind kind = kindOf(cursor);
    bool function = kind == CXCursor_FunctionTemplate || kind == CXCursor_FunctionDecl ||
                    kind == CXCursor_CXXMethod || kind == CXCursor_LambdaExpr;
    auto called = function && nothingBound()
                      ? calls_.find(kind == CXCursor_LambdaExpr ? lambdaKey(cursor) : usrOf(cursor))
                      : calls_.end();
    if (called != calls_.end() && called->second.size() <= kMostCalls) {
      for (const LauncherCall &call : called->second) {
        if (bindCall(cursor, call)) {
          ancestors_.push_back(cursor);
          for (CXCursor child : childrenOf(cursor))
            readLaunchesIn(child, sites);
          ancestors_.pop_back();
        }
        unbindCall();
      }
      return;
    }
    ancestors_.push_back(cursor);
    if (kind == CXCursor_CallExpr)
      readLaunch(cursor, sites);
    std::optional<CXCursor> dead = deadInEveryRun(cursor);
    if (kind == CXCursor_SwitchStmt)
      readSwitch(cursor, sites);
    else if (kind == CXCursor_IfStmt)
      readIf(cursor, sites, dead);
    else
      for (CXCursor child : childrenOf(cursor))
        if (!dead || !clang_equalCursors(child, *dead))
          readLaunchesIn(child, sites);
    ancestors_.pop_back();
  }

  // `switch (v) { ... }`: v's USR (empty when the selector is no variable)
  // and the statements of its body, each with the value v holds there: its
  // case's, where the case is reached only by its label (the statement
  // before ends with break, return or the like).
  struct SwitchCases {
    std::string variable;
    std::vector<std::pair<CXCursor, std::optional<int64_t>>> statements;
  };
  static std::optional<SwitchCases> casesOf(CXCursor statement) {
    std::vector<CXCursor> parts = childrenOf(statement);
    if (parts.size() != 2 || kindOf(parts[1]) != CXCursor_CompoundStmt)
      return std::nullopt;
    SwitchCases cases;
    CXCursor selector = stripWrappers(parts[0]);
    if (kindOf(selector) == CXCursor_DeclRefExpr)
      cases.variable = usrOf(clang_getCursorReferenced(selector));
    bool reachedOnlyByLabel = true; // the statement before ends control flow
    std::optional<int64_t> current; // the value of the case being read
    for (CXCursor child : childrenOf(parts[1])) {
      CXCursorKind kind = kindOf(child);
      if (kind == CXCursor_CaseStmt || kind == CXCursor_DefaultStmt) {
        // One constant label alone: `case 32: case 64:` or a default says
        // nothing of one value.
        CaseLabels labels = caseLabelsOf(child);
        current.reset();
        if (labels.values.size() == 1 && !labels.isDefault && !labels.unknown && reachedOnlyByLabel)
          current = labels.values.front();
      }
      cases.statements.emplace_back(child, cases.variable.empty() ? std::nullopt : current);
      reachedOnlyByLabel = exits(lastStatementOf(child));
    }
    return cases;
  }

  // `switch (v) { case 512: k<512><<<dim3(v), ...>>>(...); break; ... }`:
  // in the statements of a case (see casesOf), v is that case's value.
  void readSwitch(CXCursor statement, std::vector<CallSite> &sites) {
    std::vector<CXCursor> parts = childrenOf(statement);
    std::optional<SwitchCases> cases = casesOf(statement);
    if (!cases) {
      for (CXCursor part : parts)
        readLaunchesIn(part, sites);
      return;
    }
    readLaunchesIn(parts[0], sites);
    std::optional<std::vector<CXCursor>> taken = statementsTaken(parts[0], parts[1]);
    ancestors_.push_back(parts[1]);
    for (const auto &[child, value] : cases->statements) {
      if (taken && std::none_of(taken->begin(), taken->end(), [&](CXCursor statement) {
            return clang_equalCursors(statement, child);
          }))
        continue;
      bool bind = value && !boundParameters_.count(cases->variable);
      if (bind)
        boundParameters_[cases->variable] = *value;
      readLaunchesIn(child, sites);
      if (bind)
        boundParameters_.erase(cases->variable);
    }
    ancestors_.pop_back();
  }

  // The variables `expression` reads that are bound to a constant in the
  // call of a launcher, the case or the loop iteration being read, and that
  // nothing changes: counted in `bound`, and in `plain` those bound to a
  // value of the program's plain run (boundByPlainRun_).
  void countBoundValues(CXCursor expression, size_t &bound, size_t &plain) const {
    CXCursor cursor = stripWrappers(expression);
    if (kindOf(cursor) == CXCursor_DeclRefExpr) {
      std::string usr = usrOf(clang_getCursorReferenced(cursor));
      if (boundParameters_.count(usr) && !modified_.count(usr) && !reassigned_.count(usr)) {
        ++bound;
        plain += boundByPlainRun_.count(usr);
      }
      return;
    }
    for (CXCursor part : childrenOf(cursor))
      countBoundValues(part, bound, plain);
  }

  // The value of a condition or selector that reads bound values (see
  // countBoundValues), none of the plain run, and nothing the launch passes
  // or the program decides at run time (its command line included): what
  // the call being read takes it to be. A branch a value of the plain run
  // decides stays a launch the program makes with other arguments.
  std::optional<int64_t> valueInCall(CXCursor expression) {
    size_t bound = 0, plain = 0;
    countBoundValues(expression, bound, plain);
    if (!bound || plain)
      return std::nullopt;
    argcUnknown_ = true;
    std::optional<Formula> value = formulaOf(expression, 0);
    argcUnknown_ = false;
    if (!value || !value->arguments().empty())
      return std::nullopt;
    return evaluate(*value, {});
  }

  // The case labels standing before a statement of a switch's body
  // (`case 32: case 64: stmt`): their constant values, whether `default` is
  // among them, and whether one is no integer constant.
  struct CaseLabels {
    std::vector<int64_t> values;
    bool isDefault = false, unknown = false;
  };
  static CaseLabels caseLabelsOf(CXCursor statement) {
    CaseLabels labels;
    for (CXCursor cursor = statement;
         kindOf(cursor) == CXCursor_CaseStmt || kindOf(cursor) == CXCursor_DefaultStmt;) {
      std::vector<CXCursor> label = childrenOf(cursor);
      if (kindOf(cursor) == CXCursor_DefaultStmt) {
        labels.isDefault = true;
      } else {
        std::optional<SiteValue> constant =
            label.size() == 2 ? folded(label.front(), "") : std::nullopt;
        if (constant && !constant->isFloat)
          labels.values.push_back(constant->integer);
        else
          labels.unknown = true;
      }
      if (label.empty())
        break;
      cursor = label.back();
    }
    return labels;
  }

  // The statements of switch `body` that control reaches when its
  // `selector` has a value in the call being read (see valueInCall): from
  // the case labelled with that value (else the default label) to the first
  // that ends control flow. Nothing when the value is not known or a label
  // is no constant.
  std::optional<std::vector<CXCursor>> statementsTaken(CXCursor selector, CXCursor body) {
    std::optional<int64_t> value = valueInCall(selector);
    if (!value)
      return std::nullopt;
    std::vector<CXCursor> statements = childrenOf(body);
    std::optional<size_t> labelled, fallback;
    for (size_t i = 0; i < statements.size(); ++i) {
      CaseLabels stacked = caseLabelsOf(statements[i]);
      if (stacked.unknown)
        return std::nullopt;
      if (stacked.isDefault && !fallback)
        fallback = i;
      if (!labelled &&
          std::find(stacked.values.begin(), stacked.values.end(), *value) != stacked.values.end())
        labelled = i;
    }
    std::vector<CXCursor> taken;
    for (size_t i = labelled ? *labelled : fallback.value_or(statements.size());
         i < statements.size(); ++i) {
      taken.push_back(statements[i]);
      if (exits(lastStatementOf(statements[i])))
        break;
    }
    return taken;
  }

  // `v == c` (either way round): v's USR and c.
  static std::optional<Binding> equalityBinding(CXCursor condition) {
    CXCursor comparison = stripWrappers(condition);
    std::vector<CXCursor> sides = childrenOf(comparison);
    if (kindOf(comparison) != CXCursor_BinaryOperator ||
        clang_getCursorBinaryOperatorKind(comparison) != CXBinaryOperator_EQ || sides.size() != 2)
      return std::nullopt;
    for (int side = 0; side < 2; ++side) {
      CXCursor variable = stripWrappers(sides[side]);
      std::optional<SiteValue> constant = folded(sides[1 - side], "");
      if (kindOf(variable) == CXCursor_DeclRefExpr && constant && !constant->isFloat)
        return Binding{usrOf(clang_getCursorReferenced(variable)), constant->integer};
    }
    return std::nullopt;
  }

  // `if (v == 16) { k<16><<<dim3(v, v), ...>>>(...); }`: in the branch taken
  // when the condition holds, v is that value (as in a switch's case).
  // A branch no run reaches (`dead`, deadInEveryRun's) has no launches.
  void readIf(CXCursor statement, std::vector<CallSite> &sites, std::optional<CXCursor> dead) {
    std::vector<CXCursor> parts = childrenOf(statement);
    std::optional<Binding> binding = parts.size() >= 2 ? equalityBinding(parts[0]) : std::nullopt;
    // Inside the branch the condition holds whatever value a launcher's call
    // bound v to: the branch's launches are described as they run.
    bool bind = binding && !reassigned_.count(binding->first);
    std::optional<int64_t> outer;
    if (bind && boundParameters_.count(binding->first))
      outer = boundParameters_[binding->first];
    // A condition the launcher call being read decides: the other branch is
    // not taken in this call.
    std::optional<int64_t> decided = parts.size() >= 2 && clang_isExpression(kindOf(parts[0]))
                                         ? valueInCall(parts[0])
                                         : std::nullopt;
    for (size_t i = 0; i < parts.size(); ++i) {
      if ((decided && i > 0 && (i == 1) != (*decided != 0)) ||
          (dead && clang_equalCursors(parts[i], *dead)))
        continue;
      bool thenBranch = i == 1;
      if (bind && thenBranch)
        boundParameters_[binding->first] = binding->second;
      readLaunchesIn(parts[i], sites);
      if (bind && thenBranch) {
        if (outer)
          boundParameters_[binding->first] = *outer;
        else
          boundParameters_.erase(binding->first);
      }
    }
  }

  // The statement a case label stands before, or the statement itself.
  static CXCursor lastStatementOf(CXCursor statement) {
    while (kindOf(statement) == CXCursor_CaseStmt || kindOf(statement) == CXCursor_DefaultStmt) {
      std::vector<CXCursor> parts = childrenOf(statement);
      if (parts.empty())
        return statement;
      statement = parts.back();
    }
    return statement;
  }

  // `cudaMalloc(&p, bytes)` and its kin: device memory the host allocates.
  void readAllocation(CXCursor call) {
    std::string callee = spellingOf(clang_getCursorReferenced(call));
    if (!isAllocator(callee)) {
      readHelperAllocation(call);
      return;
    }
    if (clang_Cursor_getNumArguments(call) < 2)
      return;
    if (std::optional<CXCursor> target = addressTakenBy(clang_Cursor_getArgument(call, 0)))
      recordAllocation(call, *target, clang_Cursor_getArgument(call, 1), callee);
  }

  // Records that `call` allocates `bytes` into `target`: a pointer variable
  // (by USR) or a struct's pointer member (by "USR.path").
  void recordAllocation(CXCursor call, CXCursor target, CXCursor bytes, const std::string &what) {
    CXCursor pointer = stripWrappers(target);
    std::string key;
    if (kindOf(pointer) == CXCursor_DeclRefExpr)
      key = usrOf(clang_getCursorReferenced(pointer));
    else if (std::optional<MemberPath> member = memberPathOf(pointer))
      key = usrOf(member->variable) + "." + member->path;
    else if (std::optional<CXCursor> field = ownField(pointer))
      key = usrOf(*field); // a method's or constructor's `cudaMalloc(&d_, bytes)`
    else
      return;
    CXFile file = nullptr;
    unsigned line = 0, offset = 0;
    clang_getExpansionLocation(clang_getCursorLocation(call), &file, &line, nullptr, &offset);
    std::string name = take(clang_getFileName(file));
    std::string where = what + " at " + name + ":" + std::to_string(line);
    allocations_[key].push_back({bytes, where, key + "@" + name + ":" + std::to_string(offset)});
  }

  // A function of the program's that allocates device memory into one of
  // its parameters, as many bytes as another passes: `void alloc(T &p,
  // size_t bytes) { cudaMallocManaged(&p, bytes); }` (a reference) or
  // `cudaMalloc(pp, bytes)` for `void **pp` (what it points to).
  struct HelperAllocation {
    std::string allocator;
    unsigned target = 0, bytes = 0; // parameter positions
    bool reference = false;
  };
  // By the function's USR; nothing for one that allocates no such way.
  std::map<std::string, std::optional<HelperAllocation>> helperAllocations_;
  std::optional<HelperAllocation> helperAllocationOf(CXCursor function) {
    CXCursor pattern = clang_getSpecializedCursorTemplate(function);
    CXCursor definition =
        clang_getCursorDefinition(clang_Cursor_isNull(pattern) ? function : pattern);
    if (clang_Cursor_isNull(definition) ||
        clang_Location_isInSystemHeader(clang_getCursorLocation(definition)))
      return std::nullopt;
    std::string usr = usrOf(definition);
    if (auto known = helperAllocations_.find(usr); known != helperAllocations_.end())
      return known->second;
    std::vector<std::string> parameters;
    for (CXCursor parameter : parametersOf(definition))
      parameters.push_back(usrOf(parameter));
    auto position = [&](CXCursor expression) -> std::optional<unsigned> {
      CXCursor cursor = stripPointerWrappers(expression);
      if (kindOf(cursor) != CXCursor_DeclRefExpr)
        return std::nullopt;
      auto at =
          std::find(parameters.begin(), parameters.end(), usrOf(clang_getCursorReferenced(cursor)));
      return at == parameters.end() ? std::nullopt
                                    : std::optional<unsigned>(unsigned(at - parameters.begin()));
    };
    std::optional<HelperAllocation> found;
    std::function<void(CXCursor)> visit = [&](CXCursor cursor) {
      if (found)
        return;
      std::string callee = kindOf(cursor) == CXCursor_CallExpr ? calleeName(cursor) : "";
      if (clang_Cursor_getNumArguments(cursor) >= 2 && isAllocator(callee)) {
        CXCursor into = clang_Cursor_getArgument(cursor, 0);
        std::optional<CXCursor> address = addressTakenBy(into);
        std::optional<unsigned> target = position(address ? *address : into);
        std::optional<unsigned> bytes = position(clang_Cursor_getArgument(cursor, 1));
        if (target && bytes && *target != *bytes)
          found = HelperAllocation{callee, *target, *bytes, address.has_value()};
        return;
      }
      for (CXCursor child : childrenOf(cursor))
        visit(child);
    };
    visit(definition);
    helperAllocations_[usr] = found;
    return found;
  }

  // The name `call` calls: its declaration's, or in a template, where the
  // arguments depend on its parameters, the overloads it names.
  static std::string calleeName(CXCursor call) {
    std::string name = spellingOf(clang_getCursorReferenced(call));
    std::vector<CXCursor> parts = childrenOf(call);
    for (CXCursor cursor = parts.empty() ? clang_getNullCursor() : parts.front();
         name.empty() && !clang_Cursor_isNull(cursor);) {
      if (kindOf(cursor) == CXCursor_OverloadedDeclRef)
        return spellingOf(cursor);
      std::vector<CXCursor> inner = childrenOf(cursor);
      cursor = inner.size() == 1 ? inner.front() : clang_getNullCursor();
    }
    return name;
  }

  // A call of such a function allocates into what its argument names.
  void readHelperAllocation(CXCursor call) {
    CXCursor function = clang_getCursorReferenced(call);
    if (kindOf(function) != CXCursor_FunctionDecl)
      return;
    std::optional<HelperAllocation> helper = helperAllocationOf(function);
    int count = clang_Cursor_getNumArguments(call);
    if (!helper || int(std::max(helper->target, helper->bytes)) >= count)
      return;
    CXCursor argument = clang_Cursor_getArgument(call, helper->target);
    std::optional<CXCursor> target =
        helper->reference ? std::optional<CXCursor>(argument) : addressTakenBy(argument);
    if (target)
      recordAllocation(call, *target, clang_Cursor_getArgument(call, helper->bytes),
                       helper->allocator + " in " + spellingOf(function));
  }

  // What the host writes into device memory through a pointer variable:
  // `cudaMemset(p, 0, bytes)` zeros it, a copy into it (`cudaMemcpy(p, ...)`)
  // gives it contents simulee cannot know.
  void readDeviceWrite(CXCursor call) {
    std::string callee = spellingOf(clang_getCursorReferenced(call));
    bool memset = callee == "cudaMemset" || callee == "cudaMemsetAsync";
    bool copy =
        callee.rfind("cudaMemcpy", 0) == 0 && callee.find("FromSymbol") == std::string::npos;
    if ((!memset && !copy) || clang_Cursor_getNumArguments(call) < 2)
      return;
    CXCursor pointer = stripPointerWrappers(clang_Cursor_getArgument(call, 0));
    if (kindOf(pointer) != CXCursor_DeclRefExpr)
      return;
    std::optional<SiteValue> value =
        memset ? folded(clang_Cursor_getArgument(call, 1), "") : std::nullopt;
    bool zeros = value && !value->isFloat && value->integer == 0;
    std::string source;
    if (CXCursor from = stripPointerWrappers(clang_Cursor_getArgument(call, 1));
        copy && kindOf(from) == CXCursor_DeclRefExpr)
      source = usrOf(clang_getCursorReferenced(from));
    deviceWrites_[usrOf(clang_getCursorReferenced(pointer))].push_back(
        {offsetOf(call), zeros, source});
  }

  // The one variable a for statement's `init` declares (`int i = 0`), if it
  // declares one.
  static std::optional<CXCursor> loopVariableOf(CXCursor init) {
    std::vector<CXCursor> declared = childrenOf(init);
    if (kindOf(init) != CXCursor_DeclStmt || declared.size() != 1 ||
        kindOf(declared[0]) != CXCursor_VarDecl)
      return std::nullopt;
    return declared[0];
  }

  // The variable a for statement's `init` starts and its start: one it
  // declares (`int i = 0`) or one it assigns (`k = 2`, declared before).
  struct LoopStart {
    CXCursor variable;
    CXCursor value;
  };
  static std::optional<LoopStart> loopStartOf(CXCursor init) {
    if (std::optional<CXCursor> declared = loopVariableOf(init)) {
      CXCursor value = clang_Cursor_getVarDeclInitializer(*declared);
      return clang_Cursor_isNull(value) ? std::nullopt
                                        : std::optional<LoopStart>({*declared, value});
    }
    CXCursor assignment = stripWrappers(init);
    std::vector<CXCursor> sides = childrenOf(assignment);
    if (kindOf(assignment) != CXCursor_BinaryOperator ||
        clang_getCursorBinaryOperatorKind(assignment) != CXBinaryOperator_Assign ||
        sides.size() != 2 || kindOf(stripWrappers(sides[0])) != CXCursor_DeclRefExpr)
      return std::nullopt;
    CXCursor variable = clang_getCursorReferenced(stripWrappers(sides[0]));
    if (kindOf(variable) != CXCursor_VarDecl)
      return std::nullopt;
    return LoopStart{variable, sides[1]};
  }

  // `for (int i = ...) { ...; h[i] = value; ... }`: see fillLoops_.
  void readFillLoop(CXCursor loop) {
    std::vector<CXCursor> parts = childrenOf(loop);
    std::optional<CXCursor> variable = parts.size() == 4 ? loopVariableOf(parts[0]) : std::nullopt;
    if (!variable)
      return;
    std::string index = usrOf(*variable);
    std::vector<CXCursor> statements =
        kindOf(parts[3]) == CXCursor_CompoundStmt ? childrenOf(parts[3]) : std::vector{parts[3]};
    for (CXCursor statement : statements) {
      CXCursor assignment = stripWrappers(statement);
      std::vector<CXCursor> operands = childrenOf(assignment);
      if (kindOf(assignment) != CXCursor_BinaryOperator ||
          clang_getCursorBinaryOperatorKind(assignment) != CXBinaryOperator_Assign ||
          operands.size() != 2)
        continue;
      CXCursor target = stripWrappers(operands[0]);
      std::vector<CXCursor> subscript = childrenOf(target);
      if (kindOf(target) != CXCursor_ArraySubscriptExpr || subscript.size() != 2 ||
          !namesVariable(subscript[1], index))
        continue;
      CXCursor array = stripWrappers(subscript[0]);
      if (kindOf(array) == CXCursor_DeclRefExpr)
        fillLoops_[usrOf(clang_getCursorReferenced(array))].push_back(
            {loop, operands[1], offsetOf(loop)});
    }
  }

  // What the last host write into `argument`'s memory before the launch
  // being read copied there, where it copied a host array filled in a
  // counted loop from element 0 by steps of 1 (the array's last such fill
  // before the copy): see CallSite::contents. A value the formula cannot
  // say (`rand()`, a float), or one read from a variable of the program's
  // nothing is known of, gives nothing.
  CallSite::HostContents contentsBeforeLaunch(CXCursor argument, size_t params) {
    const DeviceWrite *copy = lastDeviceWrite(argument);
    auto loops = copy ? fillLoops_.find(copy->source) : fillLoops_.end();
    if (!copy || copy->source.empty() || loops == fillLoops_.end())
      return {};
    const FillLoop *fill = lastBefore(loops->second, copy->offset);
    std::vector<CXCursor> parts = fill ? childrenOf(fill->loop) : std::vector<CXCursor>{};
    std::optional<CountedLoop> counted =
        parts.size() == 4 ? countedLoopOf(parts[0], parts[1], parts[2]) : std::nullopt;
    if (!counted || counted->first != 0 || counted->step.op != Formula::Op::Add ||
        counted->step.amount != 1 || counted->last < 0)
      return {};
    bound_[counted->usr] = CallSite::kElementIndex;
    std::optional<Formula> value = formulaOf(fill->value, 0);
    bound_.erase(counted->usr);
    if (!value)
      return {};
    for (uint32_t read : value->arguments())
      if (read != CallSite::kElementIndex && read >= params)
        return {};
    return {*value, counted->last + 1, textOf(fill->value)};
  }

  // Whether the last host write into `argument`'s memory before the launch
  // being read (in the same file) set it to zeros.
  bool zeroedBeforeLaunch(CXCursor argument) {
    const DeviceWrite *last = lastDeviceWrite(argument);
    return last && last->zeros;
  }

  // The last host write into the memory of `argument`, a pointer variable,
  // before the launch being read (in the same file), or null.
  const DeviceWrite *lastDeviceWrite(CXCursor argument) const {
    CXCursor pointer = stripWrappers(argument);
    if (kindOf(pointer) != CXCursor_DeclRefExpr)
      return nullptr;
    auto writes = deviceWrites_.find(usrOf(clang_getCursorReferenced(pointer)));
    return writes == deviceWrites_.end() ? nullptr : lastBeforeLaunch(writes->second);
  }

  // The allocation a pointer argument points into: a variable allocated once
  // and never reassigned, passed as it is (its start) or moved by an integer
  // (`p + k`, `&p[k]`: `offset` is then set to k, in p's elements).
  const Allocation *allocationOf(CXCursor argument, std::optional<CXCursor> &offset,
                                 int depth = 0) {
    CXCursor pointer = stripPointerWrappers(argument);
    offset.reset();
    if (kindOf(pointer) == CXCursor_BinaryOperator &&
        clang_getCursorBinaryOperatorKind(pointer) == CXBinaryOperator_Add) {
      std::vector<CXCursor> operands = childrenOf(pointer);
      if (operands.size() != 2)
        return nullptr;
      bool pointerFirst =
          clang_getCanonicalType(clang_getCursorType(operands[0])).kind == CXType_Pointer;
      offset = operands[pointerFirst ? 1 : 0];
      pointer = stripWrappers(operands[pointerFirst ? 0 : 1]);
    } else if (kindOf(pointer) == CXCursor_UnaryOperator &&
               clang_getCursorUnaryOperatorKind(pointer) == CXUnaryOperator_AddrOf) {
      std::vector<CXCursor> operands = childrenOf(pointer);
      CXCursor element = operands.size() == 1 ? stripWrappers(operands[0]) : pointer;
      std::vector<CXCursor> parts = childrenOf(element);
      if (kindOf(element) != CXCursor_ArraySubscriptExpr || parts.size() != 2)
        return nullptr;
      pointer = stripWrappers(parts[0]);
      offset = parts[1];
    }
    // A field of the object a method runs on: its one allocation, unless
    // code other than the constructors sets it.
    if (std::optional<CXCursor> field = ownField(pointer))
      return onlyAllocation(usrOf(*field), modifiedFields_.count(usrOf(*field)) > 0);
    if (kindOf(pointer) != CXCursor_DeclRefExpr)
      return nullptr;
    CXCursor variable = clang_getCursorReferenced(pointer);
    std::string usr = usrOf(variable);
    // A copy never changed (`unsigned *src = d_in;`): the allocation of
    // what it copies.
    if (!allocations_.count(usr) && !offset && depth < 4)
      if (std::optional<CXCursor> copied = initializerOf(variable);
          copied && clang_getCanonicalType(clang_getCursorType(*copied)).kind == CXType_Pointer)
        return allocationOf(*copied, offset, depth + 1);
    return onlyAllocation(usr, reassigned_.count(usr) > 0);
  }

  // The one allocation recorded for `key`, unless it was `changed` since.
  const Allocation *onlyAllocation(const std::string &key, bool changed) const {
    auto found = allocations_.find(key);
    if (found == allocations_.end() || found->second.size() != 1 || changed)
      return nullptr;
    return &found->second.front();
  }

  std::string textOf(CXCursor cursor) {
    CXSourceRange range = clang_getCursorExtent(cursor);
    CXFile file = nullptr;
    unsigned begin = 0, end = 0;
    clang_getExpansionLocation(clang_getRangeStart(range), &file, nullptr, nullptr, &begin);
    CXFile endFile = nullptr;
    clang_getExpansionLocation(clang_getRangeEnd(range), &endFile, nullptr, nullptr, &end);
    if (!file || !clang_File_isEqual(file, endFile) || end < begin)
      return "";
    size_t size = 0;
    const char *contents = clang_getFileContents(unit_, file, &size);
    if (!contents || end > size)
      return "";
    std::string text(contents + begin, end - begin);
    // One line, single spaces: a value spread over lines reads as one.
    std::string squeezed;
    for (char ch : text) {
      bool space = ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r';
      if (space && (squeezed.empty() || squeezed.back() == ' '))
        continue;
      squeezed += space ? ' ' : ch;
    }
    while (!squeezed.empty() && squeezed.back() == ' ')
      squeezed.pop_back();
    return squeezed;
  }

  // The constant clang folds `cursor` to, if any.
  static std::optional<SiteValue> folded(CXCursor cursor, const std::string &text) {
    CXEvalResult result = clang_Cursor_Evaluate(cursor);
    if (!result)
      return std::nullopt;
    std::optional<SiteValue> value;
    switch (clang_EvalResult_getKind(result)) {
    case CXEval_Int:
      value = SiteValue::ofInteger(clang_EvalResult_isUnsignedInt(result)
                                       ? int64_t(clang_EvalResult_getAsUnsigned(result))
                                       : clang_EvalResult_getAsLongLong(result),
                                   text);
      break;
    case CXEval_Float:
      value = SiteValue::ofReal(clang_EvalResult_getAsDouble(result), text);
      break;
    default:
      break;
    }
    clang_EvalResult_dispose(result);
    return value;
  }

  // What an integer variable changed only by assignments, plain or compound
  // (`n *= 1024`, the value then that whole expression), holds at the launch
  // being read: the assignment assignmentsAtLaunch finds; its initializer
  // when there is none (returned as an assignment at the declaration).
  // Nothing when it is changed any other way or its value there is not known.
  std::optional<ValueAt> lastAssignmentBeforeLaunch(CXCursor variable) {
    std::string usr = usrOf(variable);
    auto assigned = scalarAssignments_.find(usr);
    auto changes = modifications_.find(usr);
    if (kindOf(variable) != CXCursor_VarDecl || assigned == scalarAssignments_.end() ||
        changes == modifications_.end() || size_t(changes->second) != assigned->second.size())
      return std::nullopt;
    std::optional<std::vector<const Assignment *>> held =
        assignmentsAtLaunch(assigned->second, offsetOf(variable));
    if (!held)
      return std::nullopt;
    if (!held->empty())
      return ValueAt{held->back()->value, held->back()->offset};
    CXCursor init = clang_Cursor_getVarDeclInitializer(variable);
    if (clang_Cursor_isNull(init))
      return std::nullopt;
    return ValueAt{init, offsetOf(variable)};
  }

  // The initializer of a local variable that is never changed, if any.
  std::optional<CXCursor> initializerOf(CXCursor variable) {
    if (kindOf(variable) != CXCursor_VarDecl || modified_.count(usrOf(variable)))
      return std::nullopt;
    CXCursor init = clang_Cursor_getVarDeclInitializer(variable);
    if (clang_Cursor_isNull(init))
      return std::nullopt;
    return init;
  }

  // The expression member `path` of struct variable `variable` holds at the
  // launch being read: its last write before the launch among the statements
  // of the block that declares it (`p.n = n;`), else its part of the
  // initializer (`Params p = {d_in, d_out, n};`). Nothing when the struct
  // changes otherwise (assigned whole, its address taken, a member written
  // elsewhere) or the member was never given a value.
  std::optional<CXCursor> memberValueAt(CXCursor variable, const std::string &path) {
    std::string usr = usrOf(variable);
    if (kindOf(variable) != CXCursor_VarDecl || modified_.count(usr) || reassigned_.count(usr) ||
        !declaredIn_.count(usr) || !isStruct(clang_getCursorType(variable)))
      return std::nullopt;
    const StructWrite *last = nullptr;
    if (auto writes = structWrites_.find(usr); writes != structWrites_.end())
      for (const StructWrite &write : writes->second) {
        if (!covers(write.path, path))
          continue;
        if (!write.certain)
          return std::nullopt;
        if (write.offset < launchOffset_ && (!last || write.offset > last->offset))
          last = &write;
      }
    if (last)
      return last->path == path ? std::optional<CXCursor>(last->value) : std::nullopt;
    CXCursor init = clang_Cursor_getVarDeclInitializer(variable);
    if (clang_Cursor_isNull(init))
      return std::nullopt;
    return initializerPart(init, clang_getCursorType(variable), path);
  }

  // The part of a struct's brace initializer that initializes member `path`
  // (positional initializers only: `{.n = 5}` is not followed).
  std::optional<CXCursor> initializerPart(CXCursor init, CXType type, const std::string &path) {
    CXCursor list = stripWrappers(init);
    if (kindOf(list) != CXCursor_InitListExpr)
      return std::nullopt;
    std::vector<CXCursor> parts = childrenOf(list);
    std::vector<CXCursor> fields = fieldsOf(type);
    size_t dot = path.find('.');
    std::string name = path.substr(0, dot);
    for (size_t f = 0; f < fields.size() && f < parts.size(); ++f) {
      std::string text = textOf(parts[f]);
      if (!clang_isExpression(kindOf(parts[f])) || text.empty() || text[0] == '.' ||
          text[0] == '[')
        return std::nullopt;
      if (spellingOf(fields[f]) != name)
        continue;
      if (dot == std::string::npos)
        return parts[f];
      return initializerPart(parts[f], clang_getCursorType(fields[f]), path.substr(dot + 1));
    }
    return std::nullopt;
  }

  // The members of struct argument `argument` (a local struct variable
  // passed as it is) that the host gives a value or an allocation.
  void readStructMembers(CXCursor argument, uint32_t param, CallSite &site) {
    std::optional<CXCursor> variable = structPassed(argument);
    if (!variable)
      return;
    std::string usr = usrOf(*variable);
    bool whole = !modified_.count(usr) && !reassigned_.count(usr); // changed only member-wise
    std::vector<FieldPath> fields;
    leafFieldsOf(clang_getCursorType(*variable), "", fields);
    for (const auto &[path, fieldType] : fields) {
      CXTypeKind kind = clang_getCanonicalType(fieldType).kind;
      CallSite::Member member;
      member.param = param;
      member.path = path;
      member.value = SiteValue::unknown("");
      member.allocationBytes = SiteValue::unknown("");
      std::optional<CXCursor> value = memberValueAt(*variable, path);
      if (kind == CXType_Pointer) {
        const Allocation *allocation = nullptr;
        if (value) {
          std::optional<CXCursor> offset;
          allocation = allocationOf(*value, offset);
          if (offset)
            allocation = nullptr; // a pointer into the allocation: its size is not known
        } else if (whole && !writtenMember(usr, path)) {
          auto found = allocations_.find(usr + "." + path);
          if (found != allocations_.end() && found->second.size() == 1)
            allocation = &found->second.front();
        }
        std::optional<SiteValue> bytes = allocation ? allocatedBytes(*allocation) : std::nullopt;
        if (!bytes)
          continue;
        member.allocationBytes = std::move(*bytes);
        member.allocation = allocation->where;
      } else if ((kind >= CXType_Bool && kind <= CXType_LongDouble) || kind == CXType_Enum) {
        if (auto leaf = leafMembers_.find({param, path}); leaf != leafMembers_.end()) {
          member.leaf = leaf->second;
          member.value = SiteValue::unknown(value ? textOf(*value) : "");
        } else {
          member.value = value ? valueOf(*value) : SiteValue::unknown("");
          if (member.value.isUnknown())
            continue;
        }
      } else {
        continue;
      }
      site.members.push_back(std::move(member));
    }
  }

  // The size of an allocation, when known and not negative.
  std::optional<SiteValue> allocatedBytes(const Allocation &allocation) {
    // The size as it was where the allocation was made (`n *= 2` after it
    // changes what the launch passes, not what was allocated).
    unsigned launch = std::exchange(launchOffset_, offsetOf(allocation.bytes));
    SiteValue bytes = valueOf(allocation.bytes);
    launchOffset_ = launch;
    if (bytes.isUnknown() || (bytes.isConstant() && (bytes.isFloat || bytes.integer < 0)))
      return std::nullopt;
    return bytes;
  }

  // The local struct variable an argument passes as it is.
  static std::optional<CXCursor> structPassed(CXCursor argument) {
    // Passed by value: the copy constructor's call around the variable.
    CXCursor cursor = withoutCopy(argument);
    if (kindOf(cursor) != CXCursor_DeclRefExpr)
      return std::nullopt;
    CXCursor variable = clang_getCursorReferenced(cursor);
    if (kindOf(variable) != CXCursor_VarDecl || !isStruct(clang_getCursorType(variable)))
      return std::nullopt;
    return variable;
  }

  // An integer variable nothing is known of, while the values of a launch
  // are read (variablesOf_): a leaf of the launch's formulas of its own
  // (CallSite::Variable), the same leaf wherever the launch's values use it.
  std::optional<Formula> searchedVariable(CXCursor variable) {
    if (kindOf(variable) != CXCursor_VarDecl && kindOf(variable) != CXCursor_ParmDecl)
      return std::nullopt;
    return searchedLeaf(usrOf(variable), spellingOf(variable), clang_getCursorType(variable));
  }

  // An integer member of a struct nothing is known of where the launch is
  // read (`size.width` of a launcher's parameter `ROI size`, of a struct the
  // program fills at run time): searched like an integer variable, one leaf
  // per member, named "size.width".
  std::optional<Formula> searchedMember(CXCursor member) {
    std::optional<MemberPath> path = memberPathOf(member, /*ofParameters=*/true);
    if (!path)
      return std::nullopt;
    CXCursor variable = aliasOf(path->variable);
    return searchedLeaf(usrOf(variable) + "." + path->path, spellingOf(variable) + "." + path->path,
                        clang_getCursorType(member));
  }

  // The variable `variable` is read as (aliases_): itself, but for the local
  // a function returns while its guards are read as the caller's.
  CXCursor aliasOf(CXCursor variable) const {
    auto alias = aliases_.empty() ? aliases_.end() : aliases_.find(usrOf(variable));
    return alias == aliases_.end() ? variable : alias->second;
  }

  // The leaf searched for an integer of `type` known as `key` (a variable's
  // USR, "USR.path" for a member), added to the launch's variables the first
  // time, named `name`.
  std::optional<Formula> searchedLeaf(const std::string &key, const std::string &name,
                                      CXType declared) {
    if (commandLineOnly_)
      return std::nullopt;
    // Added while the launch's values were read: the allocations and
    // conditions read after them use it too.
    if (auto bound = bound_.find(key); bound != bound_.end())
      return Formula::argument(bound->second);
    CXType type = clang_getCanonicalType(declared);
    long long bytes = clang_Type_getSizeOf(type);
    if (!variablesOf_ || !isIntegerOrEnum(type.kind) || bytes < 1 || bytes > 8)
      return std::nullopt;
    return addedLeaf(key, leafOfType(name, 0, declared));
  }

  // `leaf` (its index aside) added to the launch's variables as `key`'s.
  Formula addedLeaf(const std::string &key, CallSite::Variable leaf) {
    searchedKeys_.insert(key);
    leaf.index = nextLeaf_++;
    bound_[key] = leaf.index;
    variablesOf_->variables.push_back(std::move(leaf));
    return Formula::argument(variablesOf_->variables.back().index);
  }

  // A variable named `name` of the integer type `declared`, leaf `index`.
  static CallSite::Variable leafOfType(std::string name, uint32_t index, CXType declared) {
    CXType type = clang_getCanonicalType(declared);
    long long bytes = std::clamp(clang_Type_getSizeOf(type), 1LL, 8LL);
    return {std::move(name), index, type.kind == CXType_Bool ? 1 : uint32_t(bytes * 8),
            isSignedInteger(type)};
  }

  // Struct members set from a variable nothing is known of (`p.n = n;`) make
  // that variable a leaf of the launch's formulas, numbered after its
  // arguments; the first such member is the one searched. The next free
  // leaf index.
  uint32_t bindStructLeaves(const std::vector<CXCursor> &arguments) {
    uint32_t next = uint32_t(arguments.size());
    for (size_t i = 0; i < arguments.size(); ++i) {
      std::optional<CXCursor> variable = structPassed(arguments[i]);
      if (!variable)
        continue;
      std::vector<FieldPath> fields;
      leafFieldsOf(clang_getCursorType(*variable), "", fields);
      for (const auto &[path, fieldType] : fields) {
        if (!isIntegerOrEnum(clang_getCanonicalType(fieldType).kind))
          continue;
        std::optional<CXCursor> value = memberValueAt(*variable, path);
        CXCursor source = value ? stripWrappers(*value) : clang_getNullCursor();
        if (!value || kindOf(source) != CXCursor_DeclRefExpr || folded(source, "") ||
            formulaOf(source, 0))
          continue;
        CXCursor leaf = clang_getCursorReferenced(source);
        if ((kindOf(leaf) != CXCursor_VarDecl && kindOf(leaf) != CXCursor_ParmDecl) ||
            !isIntegerOrEnum(clang_getCanonicalType(clang_getCursorType(leaf)).kind))
          continue;
        std::string usr = usrOf(leaf);
        if (bound_.count(usr))
          continue;
        bound_[usr] = next;
        leafMembers_[{uint32_t(i), path}] = next++;
      }
    }
    return next;
  }

  // Whether the struct variable with USR `usr` has member `path` assigned.
  bool writtenMember(const std::string &usr, const std::string &path) const {
    auto writes = structWrites_.find(usr);
    return writes != structWrites_.end() &&
           std::any_of(writes->second.begin(), writes->second.end(),
                       [&](const StructWrite &write) { return covers(write.path, path); });
  }

  // A floating-point variable's value where it has one: a launcher's
  // parameter its call passes a constant, or a variable never changed after
  // an initializer with a value (`float lr = 1e-3f;`).
  std::optional<double> realOf(CXCursor expression, int depth) {
    CXCursor cursor = stripWrappers(expression);
    CXTypeKind kind = clang_getCanonicalType(clang_getCursorType(cursor)).kind;
    if (depth > 8 || kindOf(cursor) != CXCursor_DeclRefExpr ||
        (kind != CXType_Float && kind != CXType_Double && kind != CXType_Half))
      return std::nullopt;
    CXCursor variable = clang_getCursorReferenced(cursor);
    if (auto bound = boundReals_.find(usrOf(variable)); bound != boundReals_.end())
      return bound->second;
    std::optional<CXCursor> init = initializerOf(variable);
    if (!init)
      return std::nullopt;
    if (std::optional<SiteValue> constant = folded(*init, ""))
      return constant->isFloat ? constant->real : double(constant->integer);
    return realOf(*init, depth + 1);
  }

  // A float converted to an integer as C++ converts it (toward zero);
  // nothing where the result would not fit 64 bits.
  static std::optional<int64_t> convertedToInteger(double real) {
    return std::abs(real) < 9.2e18 ? std::optional<int64_t>(int64_t(real)) : std::nullopt;
  }

  // An integer or floating-point value as a constant, a formula over the
  // launch's bound arguments, or unknown.
  SiteValue valueOf(CXCursor expression, int depth = 0) {
    std::string text = textOf(expression);
    if (std::optional<SiteValue> constant = folded(expression, text))
      return *constant;
    std::optional<Formula> formula = formulaOf(expression, depth);
    if (!formula) {
      std::optional<double> real = realOf(expression, depth);
      if (!real)
        return SiteValue::unknown(text);
      // Passed where an integer is expected.
      if (isIntegerOrEnum(clang_getCanonicalType(clang_getCursorType(expression)).kind)) {
        std::optional<int64_t> converted = convertedToInteger(*real);
        return converted ? SiteValue::ofInteger(*converted, text) : SiteValue::unknown(text);
      }
      return SiteValue::ofReal(*real, text);
    }
    if (formula->nodes.size() == 1 && formula->nodes[0].op == Formula::Op::Constant)
      return SiteValue::ofInteger(formula->nodes[0].value, text);
    // Over no argument (a device property times a constant): a constant.
    if (formula->arguments().empty())
      if (std::optional<int64_t> value = constantValue(*formula))
        return SiteValue::ofInteger(*value, text);
    return SiteValue::ofFormula(std::move(*formula), text);
  }

  // `block_sizes[j]` of a table the program never changes (`int
  // block_sizes[] = {32, 64, 128};`) at an index with a value (a counted
  // loop's variable, bound while its iterations are read): that element.
  std::optional<Formula> tableElementFormula(CXCursor subscript, int depth) {
    std::vector<CXCursor> parts = childrenOf(subscript);
    if (parts.size() != 2 || kindOf(stripWrappers(parts[0])) != CXCursor_DeclRefExpr)
      return std::nullopt;
    CXCursor table = clang_getCursorReferenced(stripWrappers(parts[0]));
    if (clang_getCursorType(table).kind != CXType_ConstantArray)
      return std::nullopt;
    std::optional<CXCursor> init = initializerOf(table);
    if (!init || kindOf(*init) != CXCursor_InitListExpr)
      return std::nullopt;
    std::optional<Formula> index = formulaOf(parts[1], depth + 1);
    std::vector<CXCursor> elements = childrenOf(*init);
    int64_t at = -1;
    if (index)
      at = constantValue(*index).value_or(-1);
    if (at < 0 || size_t(at) >= elements.size())
      return std::nullopt;
    return formulaOf(elements[size_t(at)], depth + 1);
  }

  // What integer variable `variable` holds where the launch being read is
  // (formulaOf of a name of it).
  std::optional<Formula> formulaOfVariable(CXCursor variable, int depth) {
    auto bound = bound_.find(usrOf(variable));
    if (bound != bound_.end() && !searchedKeys_.count(bound->first))
      return Formula::argument(bound->second);
    if (auto parameter = boundParameters_.find(usrOf(variable));
        parameter != boundParameters_.end())
      return Formula::constant(parameter->second);
    if (auto passed = boundFormulas_.find(usrOf(variable)); passed != boundFormulas_.end())
      if (std::optional<Formula> formula = boundFormulaAtLaunch(passed->second))
        return formula;
    // A parameter of the constructor that made the object a method runs on
    // (an allocation's size there): what the constructor call passed. A
    // constructor's parameter read outside it is nothing known otherwise.
    if (auto member = boundMembers_.find(usrOf(variable)); member != boundMembers_.end())
      return boundFormulaAtLaunch(member->second);
    if (auto parameter = helperParameters_.find(usrOf(variable));
        parameter != helperParameters_.end())
      return parameter->second;
    if (CXCursor parent = clang_getCursorSemanticParent(variable);
        kindOf(variable) == CXCursor_ParmDecl && kindOf(parent) == CXCursor_Constructor &&
        std::none_of(ancestors_.begin(), ancestors_.end(),
                     [&](CXCursor ancestor) { return clang_equalCursors(ancestor, parent); }))
      return std::nullopt;
    // The program as it runs plainly: no command-line arguments.
    if (isMainParameter(variable, "argc"))
      return argcUnknown_ ? std::nullopt : std::optional<Formula>(Formula::constant(1));
    if (commandLineOnly_)
      return bound != bound_.end() ? std::optional(Formula::argument(bound->second)) : std::nullopt;
    if (std::optional<int64_t> attribute = queriedAttribute(variable))
      return Formula::constant(*attribute);
    if (std::optional<Formula> pitch = pitchAtLaunch(variable, depth))
      return pitch;
    std::optional<Formula> known;
    if (std::optional<CXCursor> init = initializerOf(variable))
      known = formulaOf(*init, depth + 1);
    else if (std::optional<ValueAt> assigned = lastAssignmentBeforeLaunch(variable))
      known = formulaWhereSet(*assigned, depth);
    else if (std::optional<ValueAt> set = setupValueOf(variable))
      known = formulaWhereSet(*set, depth);
    if (known)
      return known;
    if (bound != bound_.end())
      return Formula::argument(bound->second);
    if (std::optional<Formula> sliced = slicedValue(variable, depth))
      return sliced;
    return searchedVariable(variable);
  }

  std::optional<Formula> formulaOf(CXCursor expression, int depth) {
    if (depth > 16)
      return std::nullopt;
    if (!boundTexts_.empty())
      if (auto bound = boundTexts_.find(withoutSpaces(textOf(expression)));
          bound != boundTexts_.end())
        return Formula::constant(bound->second);
    if (std::optional<SiteValue> constant = folded(expression, "")) {
      if (constant->isFloat)
        return std::nullopt;
      return Formula::constant(constant->integer);
    }
    CXCursor cursor = stripWrappers(expression);
    switch (kindOf(cursor)) {
    case CXCursor_DeclRefExpr:
      return formulaOfVariable(clang_getCursorReferenced(cursor), depth);
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator: {
      // `n *= 1024` is n as it was there, times 1024.
      CXBinaryOperatorKind kind = clang_getCursorBinaryOperatorKind(cursor);
      std::optional<Formula::Op> op =
          kindOf(cursor) == CXCursor_BinaryOperator ? binaryOp(kind) : compoundOp(kind);
      std::vector<CXCursor> operands = childrenOf(cursor);
      // `N = M = K = 2048`: an assignment's value is what it assigns.
      if (kind == CXBinaryOperator_Assign && operands.size() == 2)
        return formulaOf(operands[1], depth + 1);
      if (!op || operands.size() != 2)
        return std::nullopt;
      std::optional<Formula> lhs = formulaOf(operands[0], depth + 1);
      // `argc > 2 && ...`: decided by its first operand.
      if (lhs && (*op == Formula::Op::LogicalAnd || *op == Formula::Op::LogicalOr))
        if (std::optional<int64_t> first = constantValue(*lhs);
            first && (*first != 0) == (*op == Formula::Op::LogicalOr))
          return Formula::constant(*first != 0);
      std::optional<Formula> rhs = lhs ? formulaOf(operands[1], depth + 1) : std::nullopt;
      if (!rhs)
        return std::nullopt;
      return Formula::binary(*op, *lhs, *rhs);
    }
    case CXCursor_UnaryOperator: {
      CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(cursor);
      std::vector<CXCursor> operands = childrenOf(cursor);
      if (operands.size() != 1)
        return std::nullopt;
      std::optional<Formula> operand = formulaOf(operands[0], depth + 1);
      if (!operand)
        return std::nullopt;
      if (op == CXUnaryOperator_Plus)
        return operand;
      if (op == CXUnaryOperator_Minus)
        return Formula::unary(Formula::Op::Neg, *operand);
      if (op == CXUnaryOperator_Not)
        return Formula::unary(Formula::Op::Not, *operand);
      if (op == CXUnaryOperator_LNot)
        return Formula::unary(Formula::Op::LogicalNot, *operand);
      return std::nullopt;
    }
    case CXCursor_ConditionalOperator: {
      // c ? a : b as !!c * a + !c * b (both sides must have a value).
      std::vector<CXCursor> operands = childrenOf(cursor);
      if (operands.size() != 3)
        return std::nullopt;
      std::optional<Formula> condition = formulaOf(operands[0], depth + 1);
      // A condition with a value (`argc > 1 ? atoi(argv[1]) : 1024`): its side.
      if (condition)
        if (std::optional<int64_t> holds = constantValue(*condition))
          return formulaOf(operands[*holds ? 1 : 2], depth + 1);
      std::optional<Formula> chosen = condition ? formulaOf(operands[1], depth + 1) : std::nullopt;
      std::optional<Formula> other = chosen ? formulaOf(operands[2], depth + 1) : std::nullopt;
      if (!other)
        return std::nullopt;
      Formula no = Formula::unary(Formula::Op::LogicalNot, *condition);
      Formula yes = Formula::unary(Formula::Op::LogicalNot, no);
      return Formula::binary(Formula::Op::Add, Formula::binary(Formula::Op::Mul, yes, *chosen),
                             Formula::binary(Formula::Op::Mul, no, *other));
    }
    case CXCursor_ArraySubscriptExpr:
      return tableElementFormula(cursor, depth);
    case CXCursor_MemberRefExpr: {
      if (commandLineOnly_)
        return std::nullopt;
      // A field of the object a method runs on, which its constructor set.
      if (std::optional<CXCursor> field = boundMembers_.empty() ? std::nullopt : ownField(cursor))
        if (auto member = boundMembers_.find(usrOf(*field)); member != boundMembers_.end())
          return boundFormulaAtLaunch(member->second);
      // A member a procedure being compiled takes as a parameter.
      if (!helperParameters_.empty())
        if (std::optional<MemberPath> member = memberPathOf(cursor, /*ofParameters=*/true))
          if (auto parameter =
                  helperParameters_.find(usrOf(aliasOf(member->variable)) + "." + member->path);
              parameter != helperParameters_.end())
            return parameter->second;
      // `threads.x` of a dim3 variable: that axis's value.
      std::vector<CXCursor> base = childrenOf(cursor);
      // `prop.multiProcessorCount` of a cudaDeviceProp: the simulated device's.
      if (base.size() == 1 && isDeviceProp(clang_getCursorType(base[0])))
        if (std::optional<int64_t> value = simulatedDeviceProperty(spellingOf(cursor)))
          return Formula::constant(*value);
      // `p.n` of a struct variable: what the host set it to (a leaf of its
      // own where a call passes the struct: conditionsAroundCall).
      if (std::optional<MemberPath> member = memberPathOf(cursor);
          member && isStruct(clang_getCursorType(member->variable))) {
        std::string key = usrOf(aliasOf(member->variable)) + "." + member->path;
        if (auto leaf = bound_.find(key); leaf != bound_.end() && !searchedKeys_.count(key))
          return Formula::argument(leaf->second);
        std::optional<CXCursor> value = memberValueAt(aliasOf(member->variable), member->path);
        return value ? formulaOf(*value, depth + 1) : searchedMember(cursor);
      }
      // `size.width` of a struct a launcher is passed: searched.
      if (base.size() == 1 && !isDim3(clang_getCursorType(base[0])))
        return isDeviceProp(clang_getCursorType(base[0])) ? std::nullopt : searchedMember(cursor);
      std::optional<unsigned> axis = axisNamed(spellingOf(cursor));
      if (base.size() != 1 || !axis)
        return std::nullopt;
      SiteValue dims[3];
      dimsOf(base[0], dims, depth + 1);
      const SiteValue &value = dims[*axis];
      if (value.isConstant() && !value.isFloat)
        return Formula::constant(value.integer);
      if (value.isFormula())
        return value.formula;
      // `dimsB.x` of a launcher's dim3 parameter: searched, one leaf per
      // axis, so that a grid of `dimsB.x / threads.x` and an argument
      // `dimsB.x` follow one choice.
      if (std::optional<MemberPath> member = memberPathOf(cursor, /*ofParameters=*/true);
          member && kindOf(member->variable) == CXCursor_ParmDecl)
        return searchedMember(cursor);
      return std::nullopt;
    }
    case CXCursor_CallExpr: {
      // min(a, b) and max(a, b), std:: or not, on integers.
      std::string callee = spellingOf(clang_getCursorReferenced(cursor));
      if (callee == "ceil" || callee == "ceilf")
        return ceilingFormula(cursor, depth);
      if (callee != "min" && callee != "max")
        return helperCallFormula(cursor, depth);
      if (clang_Cursor_getNumArguments(cursor) != 2)
        return std::nullopt;
      std::optional<Formula> lhs = formulaOf(clang_Cursor_getArgument(cursor, 0), depth + 1);
      std::optional<Formula> rhs =
          lhs ? formulaOf(clang_Cursor_getArgument(cursor, 1), depth + 1) : std::nullopt;
      if (!rhs)
        return std::nullopt;
      return Formula::binary(callee == "min" ? Formula::Op::Min : Formula::Op::Max, *lhs, *rhs);
    }
    default:
      return std::nullopt;
    }
  }

  // `ceil((float)n / 256)`, `ceil(n / 256.0)`: a grid rounded up in floating
  // point, of an integer formula by a constant whole divisor, is the integer
  // (n + 255) / 256 (for the positive sizes a grid covers). Nothing else.
  std::optional<Formula> ceilingFormula(CXCursor call, int depth) {
    if (clang_Cursor_getNumArguments(call) != 1)
      return std::nullopt;
    CXCursor quotient = stripWrappers(clang_Cursor_getArgument(call, 0));
    std::vector<CXCursor> operands = childrenOf(quotient);
    if (kindOf(quotient) != CXCursor_BinaryOperator ||
        clang_getCursorBinaryOperatorKind(quotient) != CXBinaryOperator_Div ||
        operands.size() != 2)
      return std::nullopt;
    std::optional<SiteValue> divisor = folded(operands[1], "");
    double value = !divisor ? 0 : divisor->isFloat ? divisor->real : double(divisor->integer);
    if (!(value >= 1 && value < 1e9) || value != double(int64_t(value)))
      return std::nullopt;
    std::optional<Formula> numerator = formulaOf(operands[0], depth + 1);
    if (!numerator)
      return std::nullopt;
    auto whole = int64_t(value);
    return Formula::binary(
        Formula::Op::Div,
        Formula::binary(Formula::Op::Add, *numerator, Formula::constant(whole - 1)),
        Formula::constant(whole));
  }

  // A call of a helper of the program's whose body is one `return` of an
  // integer formula of its parameters (`div_up(a, b) { return (a + b - 1) /
  // b; }`, `iDivUp`, `ceil_div`, templates too): that formula of the call's
  // arguments. Nothing for any other function.
  std::optional<Formula> helperCallFormula(CXCursor call, int depth) {
    CXCursor callee = clang_getCursorReferenced(call);
    if (CXCursor definition = clang_getCursorDefinition(callee); !clang_Cursor_isNull(definition))
      callee = definition;
    CXCursorKind kind = kindOf(callee);
    if ((kind != CXCursor_FunctionDecl && kind != CXCursor_FunctionTemplate) ||
        clang_Location_isInSystemHeader(clang_getCursorLocation(callee)))
      return std::nullopt;
    std::vector<CXCursor> parameters, bodies;
    for (CXCursor child : childrenOf(callee)) {
      if (kindOf(child) == CXCursor_ParmDecl)
        parameters.push_back(child);
      else if (kindOf(child) == CXCursor_CompoundStmt)
        bodies.push_back(child);
    }
    int count = clang_Cursor_getNumArguments(call);
    if (bodies.size() != 1 || count < 0 || size_t(count) != parameters.size())
      return std::nullopt;
    // The call's arguments as formulas; with `searchUnknown`, one nothing is
    // known of (`floorPow2(strtoull(argv[1], ...))`) is searched.
    auto operandsOf = [&](bool searchUnknown) -> std::optional<std::vector<Formula>> {
      std::vector<Formula> operands;
      for (int i = 0; i < count; ++i) {
        CXCursor argument = clang_Cursor_getArgument(call, unsigned(i));
        std::optional<Formula> operand = formulaOf(argument, depth + 1);
        if (!operand && searchUnknown)
          operand = searchedLeaf("operand@" + std::to_string(offsetOf(argument)), textOf(argument),
                                 clang_getCursorType(argument));
        if (!operand)
          return std::nullopt;
        operands.push_back(std::move(*operand));
      }
      return operands;
    };
    std::vector<CXCursor> statements = childrenOf(bodies.front());
    if (statements.size() != 1 || kindOf(statements.front()) != CXCursor_ReturnStmt) {
      std::shared_ptr<const Procedure> procedure =
          count == 1 || count == 2 ? procedureOf(callee, parameters, bodies.front()) : nullptr;
      std::optional<std::vector<Formula>> operands = procedure ? operandsOf(true) : std::nullopt;
      if (!operands)
        return std::nullopt;
      Formula called = Formula::call(std::move(procedure), *operands);
      // Of constants: its value now, or nothing where it has none (it runs
      // past its step budget, or divides by zero).
      if (called.arguments().empty()) {
        std::optional<int64_t> value = constantValue(called);
        return value ? std::optional(Formula::constant(*value)) : std::nullopt;
      }
      return called;
    }
    std::vector<CXCursor> returned = childrenOf(statements.front());
    if (returned.size() != 1)
      return std::nullopt;
    std::optional<std::vector<Formula>> operands = operandsOf(false);
    if (!operands)
      return std::nullopt;
    std::map<std::string, Formula> arguments;
    for (int i = 0; i < count; ++i)
      arguments.emplace(usrOf(parameters[size_t(i)]), std::move((*operands)[size_t(i)]));
    std::map<std::string, Formula> outer = std::move(helperParameters_);
    helperParameters_ = std::move(arguments);
    std::optional<Formula> value = formulaOf(returned.front(), depth + 1);
    helperParameters_ = std::move(outer);
    return value;
  }

  // A helper of integers whose body is more than one `return`
  // (`floor_pow2(x) { size_t p = 1; while (p <= x / 2) p <<= 1; return p;
  // }`): its statements as a Procedure, where they are integer locals with
  // initializers, assignments, ifs, loops (with break and continue) and
  // returns of formulas over the locals and constants. Anything else (a
  // pointer, a variable of the program's, a call formulaOf cannot read)
  // makes it none.
  std::shared_ptr<const Procedure>
  procedureOf(CXCursor function, const std::vector<CXCursor> &parameters, CXCursor body) {
    std::string usr = usrOf(function);
    if (auto known = procedures_.find(usr); known != procedures_.end())
      return known->second;
    procedures_[usr] = nullptr;
    if (!isIntegerOrEnum(clang_getCanonicalType(clang_getCursorResultType(function)).kind))
      return nullptr;
    std::vector<ProcedureLocal> locals;
    for (CXCursor parameter : parameters)
      locals.push_back({usrOf(parameter), clang_getCursorType(parameter)});
    std::shared_ptr<Procedure> procedure =
        compiledProcedure(spellingOf(function), locals, {body}, std::nullopt);
    if (procedure)
      procedures_[usr] = procedure;
    return procedure;
  }

  // A parameter of a procedure being compiled: the key it is read by (a
  // variable's USR, "USR.path" for a struct's member) and its type.
  struct ProcedureLocal {
    std::string key;
    CXType type;
  };

  // `body` compiled as a Procedure of `parameters` (compileProcedure), or
  // null. While it is read its locals are the formulas' arguments, and
  // nothing of the launch being read (its leaves) is in reach.
  std::shared_ptr<Procedure> compiledProcedure(const std::string &name,
                                               const std::vector<ProcedureLocal> &parameters,
                                               const std::vector<CXCursor> &body,
                                               const std::optional<std::string> &returned) {
    auto procedure = std::make_shared<Procedure>();
    procedure->name = name;
    std::map<std::string, Formula> outerHelper = std::exchange(helperParameters_, {});
    std::map<std::string, uint32_t> outerBound = std::exchange(bound_, {});
    std::set<std::string> outerSearched = std::exchange(searchedKeys_, {});
    std::map<std::string, int64_t> outerTexts = std::exchange(boundTexts_, {});
    std::map<std::string, int64_t> outerParameters = std::exchange(boundParameters_, {});
    CallSite *outerVariables = std::exchange(variablesOf_, nullptr);
    bool read = compileProcedure(*procedure, parameters, body, returned);
    helperParameters_ = std::move(outerHelper);
    bound_ = std::move(outerBound);
    searchedKeys_ = std::move(outerSearched);
    boundTexts_ = std::move(outerTexts);
    boundParameters_ = std::move(outerParameters);
    variablesOf_ = outerVariables;
    return read ? procedure : nullptr;
  }

  // The statements `body` as steps over `parameters` and the locals they
  // declare; with `returned`, a return of that local after the last.
  bool compileProcedure(Procedure &procedure, const std::vector<ProcedureLocal> &parameters,
                        const std::vector<CXCursor> &body,
                        const std::optional<std::string> &returned) {
    using Step = Procedure::Step;
    std::set<std::string> declared;
    auto addKey = [&](const std::string &key, CXType type) -> std::optional<uint32_t> {
      if (!isIntegerOrEnum(clang_getCanonicalType(type).kind))
        return std::nullopt;
      uint32_t index = procedure.locals++;
      helperParameters_.emplace(key, Formula::argument(index));
      declared.insert(key);
      return index;
    };
    auto addLocal = [&](CXCursor variable) {
      return addKey(usrOf(variable), clang_getCursorType(variable));
    };
    for (const ProcedureLocal &parameter : parameters)
      if (!addKey(parameter.key, parameter.type))
        return false;
    procedure.parameters = procedure.locals;
    // Every variable the body reads is its own, a parameter or a constant.
    for (CXCursor statement : body)
      walk(statement, [&](CXCursor cursor) {
        if (kindOf(cursor) == CXCursor_VarDecl)
          declared.insert(usrOf(cursor));
      });
    if (!std::all_of(body.begin(), body.end(),
                     [&](CXCursor statement) { return readsOnlyKeys(statement, declared); }))
      return false;
    auto emit = [&](Step::Kind kind, Formula expression = Formula::constant(0),
                    uint32_t local = 0) {
      procedure.steps.push_back(Step{kind, local, 0, std::move(expression)});
      return procedure.steps.size() - 1;
    };
    auto here = [&] { return uint32_t(procedure.steps.size()); };
    struct Loop {
      std::vector<size_t> breaks, continues;
    };
    std::vector<Loop> loops;
    auto localOf = [&](CXCursor expression) -> std::optional<uint32_t> {
      CXCursor name = stripWrappers(expression);
      if (kindOf(name) != CXCursor_DeclRefExpr)
        return std::nullopt;
      auto local = helperParameters_.find(usrOf(clang_getCursorReferenced(name)));
      if (local == helperParameters_.end())
        return std::nullopt;
      return local->second.nodes.front().argument;
    };
    // `v = e`, `v op= e`, `++v`, `v--`.
    auto assignment = [&](CXCursor expression) {
      CXCursor cursor = stripWrappers(expression);
      std::vector<CXCursor> operands = childrenOf(cursor);
      std::optional<uint32_t> local = operands.empty() ? std::nullopt : localOf(operands[0]);
      if (!local)
        return false;
      Formula current = Formula::argument(*local);
      std::optional<Formula> value;
      if (kindOf(cursor) == CXCursor_UnaryOperator) {
        CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(cursor);
        bool up = op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PostInc;
        bool down = op == CXUnaryOperator_PreDec || op == CXUnaryOperator_PostDec;
        if (up || down)
          value = Formula::binary(up ? Formula::Op::Add : Formula::Op::Sub, current,
                                  Formula::constant(1));
      } else if (operands.size() == 2 && (kindOf(cursor) == CXCursor_BinaryOperator ||
                                          kindOf(cursor) == CXCursor_CompoundAssignOperator)) {
        CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(cursor);
        std::optional<Formula> rhs = formulaOf(operands[1], 0);
        if (rhs && op == CXBinaryOperator_Assign)
          value = rhs;
        else if (std::optional<Formula::Op> compound = compoundOp(op); rhs && compound)
          value = Formula::binary(*compound, current, *rhs);
      }
      if (!value)
        return false;
      emit(Step::Kind::Assign, std::move(*value), *local);
      return true;
    };
    std::function<bool(CXCursor)> statement = [&](CXCursor cursor) -> bool {
      std::vector<CXCursor> parts = childrenOf(cursor);
      auto condition = [&](CXCursor expression) -> std::optional<size_t> {
        std::optional<Formula> holds = formulaOf(expression, 0);
        if (!holds)
          return std::nullopt;
        return emit(Step::Kind::JumpUnless, std::move(*holds));
      };
      // The body of a loop that starts at step `top`, then what comes
      // before its next iteration (`beforeNext`: a for's increment, a
      // do-while's test) and the jump back. Its breaks, and `exit` (its
      // test's jump, where it has one), go past it; its continues to
      // `beforeNext`.
      auto loopBody = [&](CXCursor loopBody, std::optional<size_t> exit,
                          const std::function<bool()> &beforeNext, uint32_t top) {
        loops.emplace_back();
        if (!statement(loopBody))
          return false;
        uint32_t next = here();
        if (!beforeNext())
          return false;
        emit(Step::Kind::Jump);
        procedure.steps.back().target = top;
        for (size_t at : loops.back().continues)
          procedure.steps[at].target = next;
        for (size_t at : loops.back().breaks)
          procedure.steps[at].target = here();
        if (exit)
          procedure.steps[*exit].target = here();
        loops.pop_back();
        return true;
      };
      switch (kindOf(cursor)) {
      case CXCursor_CompoundStmt:
        return std::all_of(parts.begin(), parts.end(), statement);
      case CXCursor_NullStmt:
        return true;
      case CXCursor_DeclStmt:
        for (CXCursor variable : parts) {
          std::optional<uint32_t> local =
              kindOf(variable) == CXCursor_VarDecl ? addLocal(variable) : std::nullopt;
          CXCursor init =
              local ? clang_Cursor_getVarDeclInitializer(variable) : clang_getNullCursor();
          std::optional<Formula> value =
              clang_Cursor_isNull(init) ? std::nullopt : formulaOf(init, 0);
          if (!value)
            return false;
          emit(Step::Kind::Assign, std::move(*value), *local);
        }
        return true;
      case CXCursor_ReturnStmt: {
        std::optional<Formula> value = parts.size() == 1 ? formulaOf(parts[0], 0) : std::nullopt;
        if (!value)
          return false;
        emit(Step::Kind::Return, std::move(*value));
        return true;
      }
      case CXCursor_IfStmt: {
        if ((parts.size() != 2 && parts.size() != 3) || !clang_isExpression(kindOf(parts[0])))
          return false;
        std::optional<size_t> test = condition(parts[0]);
        if (!test || !statement(parts[1]))
          return false;
        if (parts.size() == 2) {
          procedure.steps[*test].target = here();
          return true;
        }
        size_t skip = emit(Step::Kind::Jump);
        procedure.steps[*test].target = here();
        if (!statement(parts[2]))
          return false;
        procedure.steps[skip].target = here();
        return true;
      }
      case CXCursor_WhileStmt: {
        if (parts.size() != 2 || !clang_isExpression(kindOf(parts[0])))
          return false;
        uint32_t top = here();
        std::optional<size_t> test = condition(parts[0]);
        auto nothing = [] { return true; };
        return test && loopBody(parts[1], test, nothing, top);
      }
      case CXCursor_ForStmt: {
        if (parts.size() != 4 || !statement(parts[0]))
          return false;
        uint32_t top = here();
        std::optional<size_t> test = condition(parts[1]);
        auto increment = [&] { return assignment(parts[2]); };
        return test && loopBody(parts[3], test, increment, top);
      }
      case CXCursor_DoStmt: {
        if (parts.size() != 2)
          return false;
        uint32_t top = here();
        // The test comes after the body: where it fails, the loop ends.
        std::optional<size_t> test;
        auto tested = [&] {
          test = condition(parts[1]);
          return test.has_value();
        };
        bool read = loopBody(parts[0], std::nullopt, tested, top);
        if (read)
          procedure.steps[*test].target = here();
        return read;
      }
      case CXCursor_BreakStmt:
      case CXCursor_ContinueStmt:
        if (loops.empty())
          return false;
        (kindOf(cursor) == CXCursor_BreakStmt ? loops.back().breaks : loops.back().continues)
            .push_back(emit(Step::Kind::Jump));
        return true;
      default:
        return clang_isExpression(kindOf(cursor)) && assignment(cursor);
      }
    };
    if (!std::all_of(body.begin(), body.end(), statement))
      return false;
    if (returned) {
      auto local = helperParameters_.find(*returned);
      if (local == helperParameters_.end())
        return false;
      emit(Step::Kind::Return, local->second);
    }
    return true;
  }

  // An integer local that the function being read computes with loops
  // before the launch (`size_t words = 1; while (words < o.words) words <<=
  // 1; if (words < need) { while (words < need) words <<= 1; }`): the
  // statements of its block that set it, from its declaration to the
  // statement that holds the launch, as a Procedure of the (at most two)
  // values they read, which the launch's formulas give. Nothing when those
  // statements set anything else, or read a value that changes.
  std::optional<Formula> slicedValue(CXCursor variable, int depth) {
    std::string usr = usrOf(variable);
    auto block = scalarDeclaredIn_.find(usr);
    if (kindOf(variable) != CXCursor_VarDecl || block == scalarDeclaredIn_.end() ||
        !modified_.count(usr))
      return std::nullopt;
    // The statement of the declaring block on the way to the launch.
    std::optional<CXCursor> holder;
    for (size_t i = 0; i + 1 < ancestors_.size() && !holder; ++i)
      if (clang_equalCursors(ancestors_[i], block->second))
        holder = ancestors_[i + 1];
    if (!holder)
      return std::nullopt;
    std::set<std::string> changedOnTheWay;
    collectChanges(*holder, changedOnTheWay);
    if (changedOnTheWay.count(usr))
      return std::nullopt;
    std::vector<CXCursor> kept;
    std::set<std::string> keptInside; // the variables the kept statements declare
    for (CXCursor statement : childrenOf(block->second)) {
      if (clang_equalCursors(statement, *holder))
        break;
      std::set<std::string> inside, changed;
      walk(statement, [&](CXCursor cursor) {
        if (kindOf(cursor) == CXCursor_VarDecl)
          inside.insert(usrOf(cursor));
      });
      bool declares = inside.count(usr) > 0;
      if (!declares && kept.empty())
        continue;
      collectChanges(statement, changed);
      changedOnTheWay.insert(changed.begin(), changed.end());
      if (!declares && !changed.count(usr))
        continue;
      for (const std::string &other : changed)
        if (other != usr && !inside.count(other))
          return std::nullopt;
      kept.push_back(statement);
      keptInside.insert(inside.begin(), inside.end());
    }
    if (kept.size() < 2)
      return std::nullopt;
    // What the statements read from outside them: variables no statement
    // from the declaration to the launch changes, and members of structs
    // never changed, by key, with an expression that reads each.
    std::map<std::string, CXCursor> read;
    bool closed = true;
    std::function<void(CXCursor)> collect = [&](CXCursor cursor) {
      if (std::optional<MemberPath> member = memberPathOf(cursor, /*ofParameters=*/true)) {
        CXCursor whole = aliasOf(member->variable);
        std::string key = usrOf(whole) + "." + member->path;
        closed &= !modified_.count(usrOf(whole)) && !reassigned_.count(usrOf(whole)) &&
                  !writtenMember(usrOf(whole), member->path);
        read.emplace(key, cursor);
        return;
      }
      if (kindOf(cursor) == CXCursor_DeclRefExpr) {
        CXCursor target = clang_getCursorReferenced(cursor);
        CXCursorKind kind = kindOf(target);
        if ((kind == CXCursor_VarDecl || kind == CXCursor_ParmDecl) &&
            !keptInside.count(usrOf(target)) && !folded(cursor, "")) {
          closed &= !changedOnTheWay.count(usrOf(target));
          read.emplace(usrOf(target), cursor);
        }
        return;
      }
      for (CXCursor child : childrenOf(cursor))
        collect(child);
    };
    for (CXCursor statement : kept)
      collect(statement);
    // A Formula calls a procedure on one or two operands: a value computed
    // from more is not read, nor one computed from none (`int s = 1; s++;`,
    // left searched).
    if (!closed || read.empty() || read.size() > 2)
      return std::nullopt;
    std::vector<ProcedureLocal> parameters;
    std::vector<Formula> operands;
    for (const auto &[key, expression] : read) {
      std::optional<Formula> operand = formulaOf(expression, depth + 1);
      if (!operand)
        return std::nullopt;
      parameters.push_back({key, clang_getCursorType(expression)});
      operands.push_back(std::move(*operand));
    }
    std::string where = usr + "@" + placeOf(*holder);
    auto known = procedures_.find(where);
    if (known == procedures_.end())
      known =
          procedures_.emplace(where, compiledProcedure(spellingOf(variable), parameters, kept, usr))
              .first;
    if (!known->second)
      return std::nullopt;
    Formula called = Formula::call(known->second, operands);
    if (called.arguments().empty()) {
      std::optional<int64_t> value = constantValue(called);
      return value ? std::optional(Formula::constant(*value)) : std::nullopt;
    }
    return called;
  }

  // Whether `cursor` reads no variable but those of `keys` (by USR, a
  // struct's member by "USR.path") and constants.
  bool readsOnlyKeys(CXCursor cursor, const std::set<std::string> &keys) const {
    if (std::optional<MemberPath> member = memberPathOf(cursor, /*ofParameters=*/true);
        member && keys.count(usrOf(aliasOf(member->variable)) + "." + member->path))
      return true;
    if (kindOf(cursor) == CXCursor_DeclRefExpr) {
      CXCursor target = clang_getCursorReferenced(cursor);
      CXCursorKind kind = kindOf(target);
      return (kind != CXCursor_VarDecl && kind != CXCursor_ParmDecl) || keys.count(usrOf(target)) ||
             folded(cursor, "");
    }
    for (CXCursor child : childrenOf(cursor))
      if (!readsOnlyKeys(child, keys))
        return false;
    return true;
  }

  // Grid or block: a dim3 (constructed there, or a variable holding one) or
  // an integer (x; y and z are 1).
  void dimsOf(CXCursor expression, SiteValue (&dims)[3], int depth = 0) {
    for (SiteValue &axis : dims)
      axis = SiteValue::ofInteger(1, "");
    CXCursor cursor = stripWrappers(expression);
    if (!isDim3(clang_getCursorType(cursor))) {
      dims[0] = valueOf(expression);
      return;
    }
    auto unknown = [&] {
      std::string text = textOf(expression);
      for (SiteValue &axis : dims)
        axis = SiteValue::unknown(text);
    };
    if (depth > 8)
      return unknown();
    // A launcher's dim3 parameter its call passes a dim3 of known axes.
    if (std::optional<PassedDims> passed = boundDimsOf(cursor)) {
      for (size_t i = 0; i < 3; ++i) {
        std::optional<Formula> axis =
            passed->axes[i] ? overBoundLeaves(*passed->axes[i]) : std::nullopt;
        std::optional<int64_t> constant = axis ? constantValue(*axis) : std::nullopt;
        dims[i] = constant ? SiteValue::ofInteger(*constant, passed->texts[i])
                  : axis   ? SiteValue::ofFormula(std::move(*axis), passed->texts[i])
                           : SiteValue::unknown(passed->texts[i]);
      }
      return;
    }
    if (kindOf(cursor) == CXCursor_DeclRefExpr) {
      CXCursor variable = clang_getCursorReferenced(cursor);
      std::optional<CXCursor> init = initializerOf(variable);
      if (std::optional<ValueAt> set = init ? std::nullopt : setupValueOf(variable)) {
        unsigned launch = launchOffset_;
        launchOffset_ = set->offset;
        dimsOf(set->value, dims, depth + 1);
        launchOffset_ = launch;
        return;
      }
      if (!init)
        return unknown();
      auto assigned = dimAssignments_.find(usrOf(variable));
      std::optional<std::vector<const Assignment *>> held;
      if (assigned != dimAssignments_.end()) {
        held = assignmentsAtLaunch(assigned->second, offsetOf(variable));
        if (!held)
          return unknown();
      }
      if (!held || held->empty() || held->front()->axis)
        dimsOf(*init, dims, depth + 1);
      if (!held)
        return;
      // Each value as it was where it was assigned (`blocks = dim3(n /
      // threads.x)` reads threads there).
      unsigned launch = launchOffset_;
      for (const Assignment *set : *held) {
        launchOffset_ = set->offset;
        if (set->axis)
          dims[*set->axis] = valueOf(set->value, depth + 1);
        else
          dimsOf(set->value, dims, depth + 1);
      }
      launchOffset_ = launch;
      return;
    }
    if (kindOf(cursor) == CXCursor_ArraySubscriptExpr) {
      std::optional<ValueAt> element = elementAtLaunch(cursor);
      if (!element)
        return unknown();
      unsigned launch = launchOffset_;
      launchOffset_ = element->offset;
      dimsOf(element->value, dims, depth + 1);
      launchOffset_ = launch;
      return;
    }
    if (kindOf(cursor) != CXCursor_CallExpr)
      return unknown();
    int count = clang_Cursor_getNumArguments(cursor);
    if (count == 1 && isDim3(clang_getCursorType(clang_Cursor_getArgument(cursor, 0))))
      return dimsOf(clang_Cursor_getArgument(cursor, 0), dims, depth + 1); // a copy
    // From a uint3 made on the spot (`blocks = make_uint3(n / 256, 1, 1)`).
    if (count == 1) {
      CXCursor made = stripWrappers(clang_Cursor_getArgument(cursor, 0));
      std::string maker = spellingOf(clang_getCursorReferenced(made));
      if (kindOf(made) == CXCursor_CallExpr && (maker == "make_uint3" || maker == "make_int3") &&
          clang_Cursor_getNumArguments(made) == 3)
        cursor = made, count = 3;
    }
    // dim3(x, y, z), defaults 1; other uint3s are not followed.
    for (int axis = 0; axis < count && axis < 3; ++axis) {
      CXCursor argument = clang_Cursor_getArgument(cursor, unsigned(axis));
      if (clang_getCursorType(argument).kind == CXType_Record)
        return unknown();
      dims[axis] = valueOf(argument);
    }
  }

  // A kernel a launch may run, and what running it implies about the
  // host's variables: the index of the table element holding it and the
  // case that stored it there (`fpDeriv[fp]<<<...>>>` runs k where
  // `case 2: fpDeriv[1] = k;` of `switch (d)` stored it: fp is 1, d is 2).
  struct KernelChoice {
    CXCursor kernel;
    std::vector<Binding> bindings;
  };

  // The kernels any of `expressions` names, each once per bindings.
  std::vector<KernelChoice> kernelsNamedByAny(const std::vector<CXCursor> &expressions, int depth) {
    std::vector<KernelChoice> choices;
    for (CXCursor expression : expressions)
      for (KernelChoice &choice : kernelsNamedBy(expression, depth))
        addChoice(choices, std::move(choice));
    return choices;
  }

  // The values a kernel pointer was stored under hold where it is launched,
  // while nothing changes the variables they bind.
  void addGuards(KernelChoice &choice, const std::vector<Binding> &guards) const {
    for (const Binding &guard : guards)
      if (!modified_.count(guard.first))
        choice.bindings.push_back(guard);
  }

  // Adds `choice` unless `choices` has it or it binds a variable to two
  // values (stored at index 1 under `if (i == 0)`: no launch runs it).
  static void addChoice(std::vector<KernelChoice> &choices, KernelChoice choice) {
    std::sort(choice.bindings.begin(), choice.bindings.end());
    choice.bindings.erase(std::unique(choice.bindings.begin(), choice.bindings.end()),
                          choice.bindings.end());
    auto sameVariable = [](const Binding &a, const Binding &b) { return a.first == b.first; };
    if (std::adjacent_find(choice.bindings.begin(), choice.bindings.end(), sameVariable) !=
        choice.bindings.end())
      return;
    if (std::none_of(choices.begin(), choices.end(), [&](const KernelChoice &c) {
          return clang_equalCursors(c.kernel, choice.kernel) && c.bindings == choice.bindings;
        }))
      choices.push_back(std::move(choice));
  }

  // The kernels a `<<<>>>` callee or a cudaLaunchKernel's first argument
  // names: a kernel (`k`, `&k`, `(void *)k`), a pointer variable or a table
  // of them initialized or assigned with kernels (`table[i]`), either side
  // of `c ? a : b`, what a function of the program's returns.
  std::vector<KernelChoice> kernelsNamedBy(CXCursor expression, int depth = 0) {
    CXCursor cursor = stripWrappers(expression);
    std::vector<CXCursor> operands = childrenOf(cursor);
    if (depth > 8)
      return {};
    switch (kindOf(cursor)) {
    case CXCursor_UnaryOperator:
      if (clang_getCursorUnaryOperatorKind(cursor) != CXUnaryOperator_AddrOf ||
          operands.size() != 1)
        return {};
      return kernelsNamedBy(operands.front(), depth + 1);
    case CXCursor_ArraySubscriptExpr:
      if (operands.size() != 2)
        return {};
      return kernelsInTable(cursor, depth);
    case CXCursor_ConditionalOperator:
      if (operands.size() != 3)
        return {};
      return kernelsNamedByAny({operands[1], operands[2]}, depth + 1);
    case CXCursor_InitListExpr:
      return kernelsNamedByAny(operands, depth + 1);
    case CXCursor_CallExpr:
      return kernelsReturnedBy(cursor, depth);
    case CXCursor_DeclRefExpr: {
      // A kernel, or a pointer variable: every kernel it is initialized or
      // assigned with (`void (*kernel)(...) = &copy; ... kernel = &transpose;`).
      CXCursor target = clang_getCursorReferenced(cursor);
      if (kindOf(target) == CXCursor_FunctionDecl)
        return {{target, {}}};
      // A launcher's parameter: the kernel the call being read passes.
      if (auto passed = boundKernels_.find(usrOf(target)); passed != boundKernels_.end())
        return {{passed->second, {}}};
      if (kindOf(target) != CXCursor_VarDecl)
        return {};
      std::vector<KernelChoice> choices;
      if (CXCursor init = clang_Cursor_getVarDeclInitializer(target); !clang_Cursor_isNull(init))
        choices = kernelsNamedBy(init, depth + 1);
      if (auto assigned = assignedValues_.find(usrOf(target)); assigned != assignedValues_.end())
        for (const GuardedValue &set : assigned->second)
          for (KernelChoice &choice : kernelsNamedBy(set.value, depth + 1)) {
            addGuards(choice, set.guards);
            addChoice(choices, std::move(choice));
          }
      return choices;
    }
    default:
      return {};
    }
  }

  // A call of a function of the program's that returns kernels (`KernelFn
  // kernelFor(Mode m) { switch (m) { case kRead: return k<kRead>; ... } }`):
  // every kernel its returns name, those that return a null pointer aside.
  // Nothing where a return names none, or the function has no body here.
  std::vector<KernelChoice> kernelsReturnedBy(CXCursor call, int depth) {
    CXCursor function = clang_getCursorDefinition(clang_getCursorReferenced(call));
    if (clang_Cursor_isNull(function) || kindOf(function) != CXCursor_FunctionDecl ||
        clang_Location_isInSystemHeader(clang_getCursorLocation(function)))
      return {};
    std::vector<KernelChoice> choices;
    bool every = true;
    walk(function, [&](CXCursor statement) {
      if (kindOf(statement) != CXCursor_ReturnStmt || !every)
        return;
      std::vector<CXCursor> value = childrenOf(statement);
      if (value.empty()) {
        every = false;
        return;
      }
      std::optional<SiteValue> constant = folded(value.front(), "");
      if (kindOf(stripWrappers(value.front())) == CXCursor_CXXNullPtrLiteralExpr ||
          (constant && !constant->isFloat && constant->integer == 0))
        return;
      std::vector<KernelChoice> named = kernelsNamedBy(value.front(), depth + 1);
      every = !named.empty();
      for (KernelChoice &choice : named)
        addChoice(choices, std::move(choice));
    });
    return every ? choices : std::vector<KernelChoice>{};
  }

  // The kernels `table[index]` names. Where the table is an array variable
  // whose elements are given kernels one by one (`{&a, &b}`, `table[1] =
  // &b;`), each kernel comes with the index that holds it, bound to the
  // index variable (`table[i]`), and with the cases it was stored under.
  std::vector<KernelChoice> kernelsInTable(CXCursor subscript, int depth) {
    std::vector<CXCursor> operands = childrenOf(subscript);
    CXCursor indexVariable = stripWrappers(operands[1]);
    std::optional<std::string> indexUsr;
    if (kindOf(indexVariable) == CXCursor_DeclRefExpr &&
        isIntegerOrEnum(clang_getCanonicalType(clang_getCursorType(indexVariable)).kind))
      indexUsr = usrOf(clang_getCursorReferenced(indexVariable));
    std::vector<KernelChoice> choices;
    auto add = [&](CXCursor value, std::optional<int64_t> position,
                   const std::vector<Binding> &guards) {
      for (KernelChoice &choice : kernelsNamedBy(value, depth + 1)) {
        if (indexUsr && position)
          choice.bindings.push_back({*indexUsr, *position});
        addGuards(choice, guards);
        addChoice(choices, std::move(choice));
      }
    };
    std::optional<Subscripts> array = subscriptsOf(subscript);
    if (array && array->indices.size() == 1) {
      CXCursor init = clang_Cursor_getVarDeclInitializer(array->array);
      if (!clang_Cursor_isNull(init) && kindOf(stripWrappers(init)) == CXCursor_InitListExpr) {
        std::vector<CXCursor> elements = childrenOf(stripWrappers(init));
        for (size_t i = 0; i < elements.size(); ++i)
          add(elements[i], int64_t(i), {});
      }
      if (auto assigned = elementAssignments_.find(usrOf(array->array));
          assigned != elementAssignments_.end())
        for (const ElementAssignment &set : assigned->second)
          if (set.indices.size() == 1)
            add(set.value, set.indices.front(), set.guards);
      if (!choices.empty())
        return choices;
    }
    return kernelsNamedBy(operands[0], depth + 1);
  }

  // The configuration call clang makes of `<<<grid, block, shmem, stream>>>`.
  static std::optional<CXCursor> configurationOf(CXCursor call) {
    for (CXCursor child : childrenOf(call)) {
      if (kindOf(child) != CXCursor_CallExpr)
        continue;
      std::string callee = spellingOf(child);
      if (callee == "cudaConfigureCall" || callee == "__cudaPushCallConfiguration")
        return child;
    }
    return std::nullopt;
  }

  void describeKernel(CXCursor kernel, CallSite &site) {
    site.kernel = spellingOf(kernel);
    site.mangledName = deviceSymbol(take(clang_Cursor_getMangling(kernel)));
    site.templateArguments = templateArgumentsOf(kernel);
  }

  // A specialization's template arguments as text ("128", "float"; "?" for
  // a template or a pack).
  static std::vector<std::string> templateArgumentsOf(CXCursor function) {
    std::vector<std::string> arguments;
    int count = clang_Cursor_getNumTemplateArguments(function);
    for (int i = 0; i < count; ++i) {
      switch (clang_Cursor_getTemplateArgumentKind(function, unsigned(i))) {
      case CXTemplateArgumentKind_Integral:
        arguments.push_back(
            std::to_string(clang_Cursor_getTemplateArgumentValue(function, unsigned(i))));
        break;
      case CXTemplateArgumentKind_Type:
        arguments.push_back(take(
            clang_getTypeSpelling(clang_Cursor_getTemplateArgumentType(function, unsigned(i)))));
        break;
      default:
        arguments.push_back("?");
        break;
      }
    }
    return arguments;
  }

  // Inside a template launcher read for one argument list, a `<<<` launch
  // of a kernel template named with the launcher's parameters
  // (`box<WIN><<<...>>>`): the instantiation's source name ("box<16>").
  std::optional<std::string> instantiatedKernelName(CXCursor call) {
    std::vector<CXCursor> children = childrenOf(call);
    if (boundNames_.empty() || children.empty())
      return std::nullopt;
    std::string text = textOf(children.front());
    size_t open = text.find('<');
    if (open == std::string::npos || text.back() != '>' || text.find('(') != std::string::npos)
      return std::nullopt;
    for (const auto &[name, value] : boundNames_)
      text = std::regex_replace(text, std::regex("\\b" + name + "\\b"), value);
    return std::regex_replace(text, std::regex(R"(\s*,\s*)"), ", ");
  }

  // `k<size.value><<<count, size.value>>>(...)` in a generic lambda, or
  // `k<W>` in a template no call the reader follows instantiates: one site
  // per instantiation the compiled code launches on this line, with the
  // argument as written taking the instantiation's value wherever the
  // launch's values name it. An argument a launcher's call binds must agree.
  // False when the compiled code knows no such instantiation.
  bool readInstantiations(CXCursor call, LaunchForm form, CXCursor grid, CXCursor block,
                          std::optional<CXCursor> shared, const std::vector<CXCursor> &arguments,
                          std::vector<CallSite> &sites) {
    std::vector<CXCursor> children = childrenOf(call);
    std::string callee = children.empty() ? std::string() : textOf(children.front());
    std::optional<std::pair<std::string, std::vector<std::string>>> named =
        splitTemplateName(callee);
    if (!named)
      return readDeducedInstantiation(call, callee, form, grid, block, shared, arguments, sites);
    dependentNames_ = true;
    const auto &[base, written] = *named;
    std::vector<std::string> resolved = written;
    for (std::string &argument : resolved)
      for (const auto &[name, value] : boundNames_)
        argument = std::regex_replace(argument, std::regex("\\b" + name + "\\b"), value);
    bool found = false;
    size_t before = sites.size();
    for (const auto &[instantiation, made] : instantiationsOf(call, base)) {
      // Arguments past those written are deduced or defaulted (`k<256>(n,
      // p, d)` instantiating k<256, Payoff>).
      if (made.size() < written.size())
        continue;
      std::map<std::string, int64_t> texts;
      bool fits = true;
      for (size_t i = 0; i < written.size() && fits; ++i) {
        std::optional<int64_t> number = templateInteger(made[i]);
        std::optional<int64_t> given = templateInteger(resolved[i]);
        if (resolved[i] != written[i] || given)
          fits = given ? given == number : resolved[i] == made[i];
        else if (number)
          texts[written[i]] = *number;
      }
      if (!fits)
        continue;
      found = true;
      boundTexts_ = std::move(texts);
      readForInstantiation(call, form, grid, block, shared, arguments, *instantiation, before,
                           sites);
      boundTexts_.clear();
    }
    return found;
  }

  // The launches the compiled code makes on `call`'s line of a kernel
  // template named `base`, each with its template arguments.
  std::vector<std::pair<const CallSite *, std::vector<std::string>>>
  instantiationsOf(CXCursor call, const std::string &base) const {
    unsigned line = 0;
    clang_getExpansionLocation(clang_getCursorLocation(call), nullptr, &line, nullptr, nullptr);
    std::vector<std::pair<const CallSite *, std::vector<std::string>>> made;
    for (const CallSite &instantiation : instantiations_)
      if (std::optional<std::pair<std::string, std::vector<std::string>>> name =
              splitTemplateName(instantiation.kernel);
          instantiation.line == line && name && sameName(name->first, base))
        made.emplace_back(&instantiation, std::move(name->second));
    return made;
  }

  // The sites of `call` for the compiled code's `instantiation`: read from
  // the syntax tree, completed from the compiled code, and those equal to
  // one read since `before` dropped (compiled launches of one instantiation
  // differing only where the syntax tree knows the values are one site).
  void readForInstantiation(CXCursor call, LaunchForm form, CXCursor grid, CXCursor block,
                            std::optional<CXCursor> shared, const std::vector<CXCursor> &arguments,
                            const CallSite &instantiation, size_t before,
                            std::vector<CallSite> &sites) {
    CallSite site;
    site.form = form;
    site.kernel = instantiation.kernel;
    site.mangledName = instantiation.mangledName;
    size_t first = sites.size();
    readSites(call, int(arguments.size()), grid, block, shared, arguments, site, sites);
    for (size_t i = first; i < sites.size(); ++i)
      completeFromCompiled(sites[i], instantiation);
    for (size_t i = first; i < sites.size();) {
      bool seen =
          std::any_of(sites.begin() + std::ptrdiff_t(before), sites.begin() + std::ptrdiff_t(i),
                      [&](const CallSite &other) { return sameLaunch(other, sites[i]); });
      if (seen)
        sites.erase(sites.begin() + std::ptrdiff_t(i));
      else
        ++i;
    }
  }

  // `k<<<g, b>>>(p, n)` in a template, the kernel template's arguments
  // deduced from the launch's: the site of the one instantiation the
  // compiled code launches on this line (none where it launches several:
  // which of them this reading of the launch makes is not known).
  bool readDeducedInstantiation(CXCursor call, const std::string &callee, LaunchForm form,
                                CXCursor grid, CXCursor block, std::optional<CXCursor> shared,
                                const std::vector<CXCursor> &arguments,
                                std::vector<CallSite> &sites) {
    if (callee.empty() || !std::all_of(callee.begin(), callee.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':';
        }))
      return false;
    dependentNames_ = true;
    auto made = instantiationsOf(call, callee);
    if (made.empty() || std::any_of(made.begin(), made.end(), [&](const auto &other) {
          return other.first->mangledName != made.front().first->mangledName;
        }))
      return false;
    size_t before = sites.size();
    for (const auto &[instantiation, templateArguments] : made)
      readForInstantiation(call, form, grid, block, shared, arguments, *instantiation, before,
                           sites);
    return true;
  }

  // What the compiled code folded to constants that the syntax tree does
  // not know (a size its launcher's caller passes through a function
  // object): its dims, shared bytes and the arguments its stub is passed.
  static void completeFromCompiled(CallSite &site, const CallSite &compiled) {
    for (unsigned axis = 0; axis < 3; ++axis) {
      if (compiled.grid[axis].isConstant() && !site.grid[axis].isConstant())
        site.grid[axis] = compiled.grid[axis];
      if (compiled.block[axis].isConstant() && !site.block[axis].isConstant())
        site.block[axis] = compiled.block[axis];
    }
    if (compiled.sharedBytes.isConstant() && !site.sharedBytes.isConstant())
      site.sharedBytes = compiled.sharedBytes;
    site.loweredArguments = compiled.loweredArguments;
  }

  static bool sameLaunch(const CallSite &a, const CallSite &b) {
    auto lowered = [](const CallSite &site) {
      std::string text;
      for (const SiteValue &value : site.loweredArguments)
        text += describe(value) + ",";
      return text;
    };
    return a.mangledName == b.mangledName && a.iteration == b.iteration &&
           describe(a) == describe(b) && lowered(a) == lowered(b);
  }

  // "ns::k<a, b<c>>" as "ns::k" and its top-level template arguments, each
  // without spaces; nothing for a name with no template arguments.
  static std::optional<std::pair<std::string, std::vector<std::string>>>
  splitTemplateName(const std::string &text) {
    std::string compact = withoutSpaces(text);
    size_t open = compact.find('<');
    if (open == std::string::npos || open == 0 || compact.back() != '>')
      return std::nullopt;
    std::vector<std::string> arguments(1);
    int depth = 0;
    for (size_t i = open + 1; i + 1 < compact.size(); ++i) {
      char c = compact[i];
      depth += c == '<' || c == '(' ? 1 : c == '>' || c == ')' ? -1 : 0;
      if (depth < 0)
        return std::nullopt;
      if (c == ',' && depth == 0)
        arguments.emplace_back();
      else
        arguments.back() += c;
    }
    if (depth != 0)
      return std::nullopt;
    return std::pair{compact.substr(0, open), std::move(arguments)};
  }

  static std::string withoutSpaces(const std::string &text) {
    std::string compact;
    for (char c : text)
      if (!std::isspace(static_cast<unsigned char>(c)))
        compact += c;
    return compact;
  }

  // Whether two names of one function agree, one maybe more qualified
  // ("k" and "ns::k").
  static bool sameName(const std::string &a, const std::string &b) {
    const std::string &longer = a.size() >= b.size() ? a : b;
    const std::string &shorter = a.size() >= b.size() ? b : a;
    return longer == shorter || longer.ends_with("::" + shorter);
  }

  // A template argument's integer value as demangled or written ("64",
  // "true", "(unsigned char)3", "16u"); nothing for a type or an expression.
  static std::optional<int64_t> templateInteger(std::string text) {
    if (text == "true" || text == "false")
      return text == "true";
    if (text.starts_with("(") && text.find(')') != std::string::npos)
      text = text.substr(text.find(')') + 1);
    while (!text.empty() && std::strchr("uUlL", text.back()))
      text.pop_back();
    int64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
      return std::nullopt;
    return value;
  }

  // The array of kernel arguments an expression names (`args` of `void
  // *args[] = {&a, &n}`, or a launcher's parameter a call passes it).
  std::optional<CXCursor> argumentArrayNamed(CXCursor expression) const {
    if (std::optional<CXCursor> bound = boundThrough(expression, boundArrays_))
      return bound;
    CXCursor cursor = stripWrappers(expression);
    if (kindOf(cursor) != CXCursor_DeclRefExpr)
      return std::nullopt;
    CXCursor variable = clang_getCursorReferenced(cursor);
    CXType element =
        clang_getArrayElementType(clang_getCanonicalType(clang_getCursorType(variable)));
    CXCursor init = kindOf(variable) == CXCursor_VarDecl
                        ? clang_Cursor_getVarDeclInitializer(variable)
                        : clang_getNullCursor();
    if (clang_Cursor_isNull(init) || kindOf(init) != CXCursor_InitListExpr ||
        element.kind != CXType_Pointer ||
        clang_getCanonicalType(clang_getPointeeType(element)).kind != CXType_Void)
      return std::nullopt;
    return variable;
  }

  // The expressions of `void *args[] = {&a, &n}` passed to cudaLaunchKernel.
  std::vector<CXCursor> launchArgumentArray(CXCursor expression) {
    std::optional<CXCursor> array = argumentArrayNamed(expression);
    if (!array)
      return {};
    CXCursor init = clang_Cursor_getVarDeclInitializer(*array);
    std::vector<CXCursor> values;
    for (CXCursor element : childrenOf(init)) {
      std::optional<CXCursor> function = addressTakenBy(element);
      if (!function)
        return {};
      values.push_back(*function);
    }
    return values;
  }

  // The sites of one launch: one per kernel its callee may name.
  void readLaunch(CXCursor call, std::vector<CallSite> &sites) {
    for (CXCursor ancestor : ancestors_) {
      CXCursorKind kind = kindOf(ancestor);
      launchInTemplate_ = launchInTemplate_ || kind == CXCursor_FunctionTemplate ||
                          kind == CXCursor_ClassTemplate ||
                          kind == CXCursor_ClassTemplatePartialSpecialization;
    }
    LaunchForm form = LaunchForm::TripleChevron;
    std::vector<KernelChoice> kernels;
    std::optional<CXCursor> grid, block, shared;
    std::vector<CXCursor> arguments;
    if (std::optional<CXCursor> config = configurationOf(call)) {
      CXCursor callee = clang_getCursorReferenced(call);
      std::vector<CXCursor> children = childrenOf(call);
      if (kindOf(callee) == CXCursor_FunctionDecl)
        kernels = {{callee, {}}};
      else if (!children.empty())
        kernels = kernelsNamedBy(children.front());
      int count = clang_Cursor_getNumArguments(*config);
      if (count < 2)
        return;
      grid = clang_Cursor_getArgument(*config, 0);
      block = clang_Cursor_getArgument(*config, 1);
      if (count > 2)
        shared = clang_Cursor_getArgument(*config, 2);
      for (int i = 0; i < clang_Cursor_getNumArguments(call); ++i)
        arguments.push_back(clang_Cursor_getArgument(call, unsigned(i)));
    } else {
      std::string callee = spellingOf(clang_getCursorReferenced(call));
      if (callee != "cudaLaunchKernel" && callee != "cudaLaunchCooperativeKernel")
        return;
      form = callee == "cudaLaunchKernel" ? LaunchForm::LaunchKernel
                                          : LaunchForm::LaunchCooperativeKernel;
      int count = clang_Cursor_getNumArguments(call);
      if (count < 4)
        return;
      kernels = kernelsNamedBy(clang_Cursor_getArgument(call, 0));
      grid = clang_Cursor_getArgument(call, 1);
      block = clang_Cursor_getArgument(call, 2);
      arguments = launchArgumentArray(clang_Cursor_getArgument(call, 3));
      if (count > 4)
        shared = clang_Cursor_getArgument(call, 4);
    }
    if (kernels.empty()) {
      if (readInstantiations(call, form, *grid, *block, shared, arguments, sites))
        return;
      if (std::optional<std::string> name = instantiatedKernelName(call)) {
        CallSite site;
        site.form = form;
        site.kernel = *name; // the kernel's source name: no symbol to match
        readSites(call, int(arguments.size()), *grid, *block, shared, arguments, site, sites);
      }
      return;
    }
    std::vector<CountedLoop> loops = countedLoopsAroundLaunch();
    for (const KernelChoice &choice : kernels) {
      choicesSeen_.insert(spellingOf(choice.kernel));
      // A kernel its table holds only where a launcher's call, a case around
      // the launch or the loop over the table's index rules it out is not
      // launched here.
      auto excluded = [&](const Binding &b) {
        auto bound = boundParameters_.find(b.first);
        if (bound != boundParameters_.end())
          return bound->second != b.second;
        auto loop = std::find_if(loops.begin(), loops.end(),
                                 [&](const CountedLoop &l) { return l.usr == b.first; });
        std::optional<std::vector<int64_t>> values =
            loop == loops.end() ? std::nullopt : valuesOf(*loop, 4096);
        return values && std::find(values->begin(), values->end(), b.second) == values->end();
      };
      if (std::any_of(choice.bindings.begin(), choice.bindings.end(), excluded))
        continue;
      choicesTaken_.insert(spellingOf(choice.kernel));
      CallSite site;
      site.form = form;
      describeKernel(choice.kernel, site);
      std::vector<std::string> added;
      for (const CountedLoop &loop : loops)
        for (const Binding &binding : choice.bindings)
          if (binding.first == loop.usr)
            site.iteration += (site.iteration.empty() ? "" : ", ") + loop.name + " = " +
                              std::to_string(binding.second);
      for (const Binding &binding : choice.bindings)
        if (boundParameters_.emplace(binding).second)
          added.push_back(binding.first);
      int params = clang_Cursor_getNumArguments(choice.kernel);
      std::vector<CXCursor> passed = arguments;
      if (params >= 0 && passed.size() != size_t(params))
        passed.clear(); // cudaLaunchKernel's array could not be read
      readSites(call, params, *grid, *block, shared, passed, site, sites);
      for (const std::string &usr : added)
        boundParameters_.erase(usr);
    }
  }

  // How many of a site's dims, shared bytes and arguments are unknown; with
  // `numbers` (the launch's arguments), only the arguments it passes as
  // integers or floating-point values count.
  static size_t unknownsOf(const CallSite &site, const std::vector<CXCursor> *numbers = nullptr) {
    size_t unknowns = site.sharedBytes.isUnknown();
    for (int axis = 0; axis < 3; ++axis)
      unknowns += site.grid[axis].isUnknown() + site.block[axis].isUnknown();
    for (size_t i = 0; i < site.arguments.size(); ++i) {
      if (numbers) {
        if (i >= numbers->size())
          break;
        CXTypeKind type = clang_getCanonicalType(clang_getCursorType((*numbers)[i])).kind;
        if (!isIntegerOrEnum(type) && type != CXType_Float && type != CXType_Double)
          continue;
      }
      unknowns += site.arguments[i].isUnknown();
    }
    return unknowns;
  }

  // Reads one launch of `prototype`'s kernel into `sites`. Where values of
  // the launch are unknown because they are computed from the variables of
  // counted loops around it that no argument passes (`blocks =
  // make_uint3(segment / 512, 1, 1)` in `for (unsigned segment = 1024;
  // segment < n; segment <<= 1)`), the launch is read at the loops'
  // iterations instead, each a launch the program makes: all of them when
  // they are at most kMostIterations, else that many spread from the first
  // to the last. So are loops whose variable an argument passes (`k<<<g,
  // b>>>(d, stride, n)` in `for (stride = 1; stride < n; stride *= 2)`)
  // where that makes every value of the launch known: each iteration is
  // then a whole launch of the program's, judged as it is, where searching
  // the variable would search launches as costly.
  void readSites(CXCursor call, int params, CXCursor grid, CXCursor block,
                 std::optional<CXCursor> shared, const std::vector<CXCursor> &arguments,
                 const CallSite &prototype, std::vector<CallSite> &sites) {
    constexpr size_t kMostIterations = 4, kMostEnumerated = 4096;
    // The site with the variables nothing is known of searched.
    auto searched = [&] {
      CallSite at = prototype;
      readSite(call, params, grid, block, shared, arguments, at, true);
      sites.push_back(std::move(at));
    };
    std::vector<CountedLoop> around = countedLoopsAroundLaunch();
    if (around.empty())
      return searched();
    // Read first with those variables left unknown: a counted loop's are
    // better read at its iterations.
    CallSite site = prototype;
    readSite(call, params, grid, block, shared, arguments, site, false);
    size_t unknowns = unknownsOf(site);
    if (!unknowns) {
      sites.push_back(std::move(site));
      return;
    }
    // The loops read at their iterations (with those whose variable an
    // argument passes, or without), each with its values, and how many
    // iterations they make together.
    struct Iterated {
      std::vector<std::pair<CountedLoop, std::vector<int64_t>>> loops;
      size_t combinations = 1;
    };
    auto iterated = [&](bool withPassed) {
      Iterated chosen;
      for (const CountedLoop &loop : around) {
        if (!withPassed && std::any_of(arguments.begin(), arguments.end(), [&](CXCursor argument) {
              return namesVariable(argument, loop.usr);
            }))
          continue;
        std::optional<std::vector<int64_t>> values = valuesOf(loop, kMostEnumerated);
        if (!values || chosen.combinations * values->size() > kMostEnumerated)
          continue;
        chosen.combinations *= values->size();
        chosen.loops.emplace_back(loop, std::move(*values));
      }
      return chosen;
    };
    // Iteration k of `count`, with the loop variables bound to its values.
    auto iteration = [&](const Iterated &chosen, size_t count, size_t k, bool searchVariables) {
      size_t index = count == 1 ? 0 : k * (chosen.combinations - 1) / (count - 1);
      CallSite at = prototype;
      // The outermost loop (last found) varies slowest.
      for (const auto &[loop, values] : chosen.loops) {
        int64_t value = values[index % values.size()];
        index /= values.size();
        boundParameters_[loop.usr] = value;
        at.iteration = loop.name + " = " + std::to_string(value) +
                       (at.iteration.empty() ? "" : ", ") + at.iteration;
      }
      readSite(call, params, grid, block, shared, arguments, at, searchVariables);
      for (const auto &[loop, values] : chosen.loops)
        boundParameters_.erase(loop.usr);
      return at;
    };
    Iterated chosen = iterated(true);
    if (chosen.loops.empty() || unknownsOf(iteration(chosen, 1, 0, false), &arguments) > 0)
      chosen = iterated(false);
    if (chosen.loops.empty())
      return searched();
    size_t count = std::min(chosen.combinations, kMostIterations);
    if (unknownsOf(iteration(chosen, count, 0, false)) >= unknowns)
      return searched();
    for (size_t k = 0; k < count; ++k)
      sites.push_back(iteration(chosen, count, k, true));
  }

  // What one launch passes: location, arguments, dims, shared bytes and the
  // allocations of its buffers. With `searchVariables`, the integer
  // variables these are computed from that nothing is known of become the
  // site's searched variables.
  void readSite(CXCursor call, int params, CXCursor grid, CXCursor block,
                std::optional<CXCursor> shared, const std::vector<CXCursor> &arguments,
                CallSite &site, bool searchVariables) {
    CXFile file = nullptr;
    clang_getExpansionLocation(clang_getCursorLocation(call), &file, &site.line, &site.column,
                               &launchOffset_);
    site.file = take(clang_getFileName(file));

    // Integer arguments that are plain variables are the formulas' leaves:
    // a grid of (n + 255) / 256 follows the n passed with it.
    std::vector<bool> isLeaf;
    auto bindLeaves = [&] {
      bound_.clear();
      searchedKeys_.clear();
      isLeaf.assign(arguments.size(), false);
      for (size_t i = 0; i < arguments.size(); ++i) {
        std::optional<std::string> usr = leafVariable(arguments[i]);
        if (!usr || bound_.count(*usr) ||
            (searchVariables && derivedFromSearched(arguments[i], site)))
          continue;
        bound_[*usr] = uint32_t(i);
        isLeaf[i] = true;
      }
    };
    bindLeaves();
    // A pointer moved through its allocation by a loop variable no argument
    // passes (`&d[s * n]` in a loop over streams): the site is that loop's
    // last iteration, and its leaves are read again.
    std::vector<std::string> lastIteration = bindLastIteration(arguments, site);
    if (!lastIteration.empty())
      bindLeaves();
    uint32_t nextLeaf = bindStructLeaves(arguments);
    if (searchVariables) {
      variablesOf_ = &site;
      nextLeaf_ = std::max(nextLeaf, uint32_t(std::max(params, 0)));
    }
    for (size_t i = 0; i < arguments.size(); ++i)
      site.arguments.push_back(isLeaf[i] ? SiteValue::unknown(textOf(arguments[i]))
                                         : valueOf(arguments[i]));
    if (arguments.empty())
      site.arguments.assign(size_t(std::max(params, 0)), SiteValue::unknown(""));
    dimsOf(grid, site.grid);
    dimsOf(block, site.block);
    site.sharedBytes = shared ? valueOf(*shared) : SiteValue::ofInteger(0, "");
    // Allocations, struct members and conditions only use what the launch's
    // values made searched: a size computed from a variable of its own would
    // be chosen apart from the bounds the kernel is passed.
    variablesOf_ = nullptr;
    site.allocationBytes.assign(site.arguments.size(), SiteValue::unknown(""));
    site.allocations.assign(site.arguments.size(), "");
    site.zeroed.assign(site.arguments.size(), false);
    for (size_t i = 0; i < arguments.size(); ++i)
      site.zeroed[i] = zeroedBeforeLaunch(arguments[i]);
    site.contents.assign(site.arguments.size(), {});
    for (size_t i = 0; i < arguments.size(); ++i)
      site.contents[i] = contentsBeforeLaunch(arguments[i], site.arguments.size());
    site.allocationOffsets.assign(site.arguments.size(), SiteValue::ofInteger(0, ""));
    site.allocationAliasOf.assign(site.arguments.size(), -1);
    std::vector<std::string> allocationIds(site.arguments.size());
    for (size_t i = 0; i < arguments.size(); ++i) {
      CXType type = clang_getCanonicalType(clang_getCursorType(arguments[i]));
      std::optional<CXCursor> offset;
      const Allocation *allocation =
          type.kind == CXType_Pointer ? allocationOf(arguments[i], offset) : nullptr;
      // A launcher's parameter: the allocation its call passes.
      std::optional<PassedAllocation> passed =
          allocation ? std::nullopt : boundAllocationOf(arguments[i]);
      if (passed && passed->sized) {
        // Its size over the launch's leaves, where the launch reads them all.
        std::optional<Formula> sized = overBoundLeaves(*passed->sized);
        if (!sized)
          continue;
        site.allocationBytes[i] = SiteValue::ofFormula(std::move(*sized), passed->text);
        site.allocations[i] = passed->where;
        allocationIds[i] = passed->id;
        continue;
      }
      if (passed) {
        site.allocationBytes[i] = SiteValue::ofInteger(passed->bytes, passed->text);
        site.allocations[i] = passed->where;
        allocationIds[i] = passed->id;
        continue;
      }
      if (!allocation)
        continue;
      std::optional<SiteValue> allocated = allocatedBytes(*allocation);
      if (!allocated)
        continue;
      SiteValue bytes = std::move(*allocated);
      if (offset) {
        // In bytes: the offset in the pointer's elements times their size.
        long long elementBytes = clang_Type_getSizeOf(clang_getPointeeType(type));
        SiteValue elements = valueOf(*offset);
        if (elementBytes <= 0 || elements.isUnknown() || elements.isFloat)
          continue;
        std::string text = elements.text.empty()
                               ? ""
                               : "(" + elements.text + ") * " + std::to_string(elementBytes);
        SiteValue moved =
            elements.isConstant()
                ? SiteValue::ofInteger(elements.integer * elementBytes, text)
                : SiteValue::ofFormula(Formula::binary(Formula::Op::Mul, elements.formula,
                                                       Formula::constant(elementBytes)),
                                       text);
        site.allocationOffsets[i] = std::move(moved);
      }
      site.allocationBytes[i] = std::move(bytes);
      site.allocations[i] = allocation->where;
      allocationIds[i] = allocation->id;
    }
    // Pointers into one allocation (`k<<<g, b>>>(d, d, n)`, `(d, d + n)`).
    for (size_t i = 0; i < allocationIds.size(); ++i)
      for (size_t j = 0; j < i && !allocationIds[i].empty(); ++j)
        if (allocationIds[j] == allocationIds[i] && site.allocationAliasOf[j] < 0) {
          site.allocationAliasOf[i] = int32_t(j);
          break;
        }
    for (size_t i = 0; i < arguments.size(); ++i)
      readStructMembers(arguments[i], uint32_t(i), site);
    readConstraints(site);
    addCallConditions(site);
    bound_.clear();
    searchedKeys_.clear();
    leafMembers_.clear();
    for (const std::string &variable : lastIteration)
      boundParameters_.erase(variable);
  }

  // A for loop's step that changes `variable` by a constant C of at least 1:
  // `v++` and `++v` (+= 1), `v--` and `--v` (-= 1), `v += C`, `v -= C`,
  // `v *= C`, `v /= C`, `v <<= C`, `v >>= C`, or one of these written out
  // (`v = v >> 1`).
  struct LoopStep {
    Formula::Op op;
    int64_t amount;
    // Whether the variable grows with each step (+, *, <<): else it shrinks.
    bool grows() const {
      return op == Formula::Op::Add || op == Formula::Op::Mul || op == Formula::Op::Shl;
    }
  };
  std::optional<LoopStep> loopStep(CXCursor step, CXCursor variable) {
    std::string usr = usrOf(variable);
    CXCursor cursor = stripWrappers(step);
    std::vector<CXCursor> operands = childrenOf(cursor);
    if (operands.empty() || !namesVariable(operands[0], usr))
      return std::nullopt;
    if (kindOf(cursor) == CXCursor_UnaryOperator) {
      CXUnaryOperatorKind unary = clang_getCursorUnaryOperatorKind(cursor);
      if (unary == CXUnaryOperator_PostInc || unary == CXUnaryOperator_PreInc)
        return LoopStep{Formula::Op::Add, 1};
      if (unary == CXUnaryOperator_PostDec || unary == CXUnaryOperator_PreDec)
        return LoopStep{Formula::Op::Sub, 1};
      return std::nullopt;
    }
    if (operands.size() != 2)
      return std::nullopt;
    CXBinaryOperatorKind kind = clang_getCursorBinaryOperatorKind(cursor);
    std::optional<Formula::Op> op;
    CXCursor amount = operands[1];
    if (kindOf(cursor) == CXCursor_CompoundAssignOperator) {
      op = compoundOp(kind);
    } else if (kindOf(cursor) == CXCursor_BinaryOperator && kind == CXBinaryOperator_Assign) {
      CXCursor value = stripWrappers(operands[1]);
      std::vector<CXCursor> sides = childrenOf(value);
      if (kindOf(value) != CXCursor_BinaryOperator || sides.size() != 2 ||
          !namesVariable(sides[0], usr))
        return std::nullopt;
      op = binaryOp(clang_getCursorBinaryOperatorKind(value));
      amount = sides[1];
    }
    std::optional<Formula> value = op ? formulaOf(amount, 0) : std::nullopt;
    std::optional<int64_t> constant = value ? constantValue(*value) : std::nullopt;
    if (!constant || *constant < 1)
      return std::nullopt;
    switch (*op) {
    case Formula::Op::Add:
    case Formula::Op::Sub:
    case Formula::Op::Shl:
    case Formula::Op::Shr:
      return LoopStep{*op, *constant};
    case Formula::Op::Mul:
    case Formula::Op::Div:
      return *constant >= 2 ? std::optional<LoopStep>(LoopStep{*op, *constant}) : std::nullopt;
    default:
      return std::nullopt;
    }
  }

  // Whether `expression` is the variable `usr` itself (`v`, not `v.x`).
  static bool namesVariable(CXCursor expression, const std::string &usr) {
    CXCursor cursor = stripWrappers(expression);
    return kindOf(cursor) == CXCursor_DeclRefExpr &&
           usrOf(clang_getCursorReferenced(cursor)) == usr;
  }

  // `for (int v = A; v < E; step)` (or `v <= E`, `v != E`, `E > v`) with A
  // and E constants and v changed only by the step (loopStep's, one that
  // grows): the loop's parts, if it runs at all.
  struct CountedLoop {
    std::string usr, name;
    int64_t first = 0;
    LoopStep step;
    int64_t last = 0; // the largest value the condition admits
  };
  std::optional<CountedLoop> countedLoopOf(CXCursor init, CXCursor condition, CXCursor step) {
    std::optional<CXCursor> declared = loopVariableOf(init);
    if (!declared)
      return std::nullopt;
    CXCursor variable = *declared;
    std::string usr = usrOf(variable);
    CXCursor start = clang_Cursor_getVarDeclInitializer(variable);
    std::optional<int64_t> first;
    if (!clang_Cursor_isNull(start))
      if (std::optional<Formula> value = formulaOf(start, 0))
        first = constantValue(*value);
    auto changes = modifications_.find(usr);
    if (!first || changes == modifications_.end() || changes->second != 1)
      return std::nullopt;
    // The step: the variable's one change.
    std::optional<LoopStep> stepped = loopStep(step, variable);
    if (!stepped || !stepped->grows())
      return std::nullopt;
    auto isVariable = [&](CXCursor expression) { return namesVariable(expression, usr); };
    // The condition: the variable against a constant end.
    CXCursor test = stripWrappers(condition);
    std::vector<CXCursor> sides = childrenOf(test);
    if (kindOf(test) != CXCursor_BinaryOperator || sides.size() != 2)
      return std::nullopt;
    CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(test);
    if (isVariable(sides[1]) && !isVariable(sides[0])) {
      std::swap(sides[0], sides[1]);
      op = op == CXBinaryOperator_GT   ? CXBinaryOperator_LT
           : op == CXBinaryOperator_GE ? CXBinaryOperator_LE
                                       : op;
    }
    std::optional<Formula> bound = isVariable(sides[0]) ? formulaOf(sides[1], 0) : std::nullopt;
    std::optional<int64_t> end = bound ? constantValue(*bound) : std::nullopt;
    if (!end)
      return std::nullopt;
    CountedLoop loop{usr, spellingOf(variable), *first, *stepped, 0};
    bool unitStep = stepped->op == Formula::Op::Add && stepped->amount == 1;
    if (op == CXBinaryOperator_LT || (op == CXBinaryOperator_NE && unitStep))
      loop.last = *end - 1;
    else if (op == CXBinaryOperator_LE)
      loop.last = *end;
    else
      return std::nullopt;
    if (loop.last < *first)
      return std::nullopt;
    return loop;
  }

  // The counted loops whose body holds the launch being read, innermost
  // first, but those whose variable a launcher's call or a branch binds.
  std::vector<CountedLoop> countedLoopsAroundLaunch() {
    std::vector<CountedLoop> loops;
    for (size_t i = ancestors_.size() - 1; i-- > 0;) {
      CXCursor parent = ancestors_[i];
      CXCursorKind kind = kindOf(parent);
      if (kind == CXCursor_FunctionDecl || kind == CXCursor_FunctionTemplate ||
          kind == CXCursor_LambdaExpr)
        break;
      std::vector<CXCursor> parts = childrenOf(parent);
      if (kind != CXCursor_ForStmt || parts.size() != 4 ||
          !clang_equalCursors(ancestors_[i + 1], parts[3]))
        continue;
      if (std::optional<CountedLoop> loop = countedLoopOf(parts[0], parts[1], parts[2]);
          loop && !boundParameters_.count(loop->usr))
        loops.push_back(std::move(*loop));
    }
    return loops;
  }

  // The values a counted loop's variable takes, in order, when they are at
  // most `most`.
  static std::optional<std::vector<int64_t>> valuesOf(const CountedLoop &loop, size_t most) {
    std::vector<int64_t> values;
    for (int64_t v = loop.first; v <= loop.last;) {
      if (values.size() == most)
        return std::nullopt;
      values.push_back(v);
      int64_t next = loop.step.op == Formula::Op::Add   ? v + loop.step.amount
                     : loop.step.op == Formula::Op::Mul ? v * loop.step.amount
                     : loop.step.amount < 62            ? v << loop.step.amount
                                                        : 0;
      if (next <= v) // overflow, or a loop of zeros
        return std::nullopt;
      v = next;
    }
    return values;
  }

  // Where a pointer argument moves through its allocation by the variable of
  // a counted loop around the launch (`for (int s = 0; s < 4; ++s)`, and
  // only there) that no leaf argument passes, binds the variables of those
  // loops to their last values: the launch that has least of the allocation
  // left, a launch the program makes, so the allocation sizes its buffer.
  // Returns what it bound; `site.lastIteration` names it.
  std::vector<std::string> bindLastIteration(const std::vector<CXCursor> &arguments,
                                             CallSite &site) {
    std::vector<CountedLoop> loops = countedLoopsAroundLaunch();
    std::erase_if(loops, [](const CountedLoop &loop) { return loop.step.op != Formula::Op::Add; });
    // An adding loop's last value: its end, less what the step skips.
    auto lastValue = [](const CountedLoop &loop) {
      return loop.first + (loop.last - loop.first) / loop.step.amount * loop.step.amount;
    };
    auto bind = [&](bool on) {
      for (const CountedLoop &loop : loops)
        if (on)
          boundParameters_[loop.usr] = lastValue(loop);
        else
          boundParameters_.erase(loop.usr);
    };
    for (CXCursor argument : arguments) {
      std::optional<CXCursor> offset;
      if (loops.empty() ||
          clang_getCanonicalType(clang_getCursorType(argument)).kind != CXType_Pointer ||
          !allocationOf(argument, offset) || !offset || formulaOf(*offset, 0))
        continue;
      bind(true);
      if (formulaOf(*offset, 0)) {
        std::vector<std::string> bound;
        for (const CountedLoop &loop : loops) {
          bound.push_back(loop.usr);
          site.lastIteration += (site.lastIteration.empty() ? "" : ", ") + loop.name + " = " +
                                std::to_string(lastValue(loop));
        }
        return bound;
      }
      bind(false);
    }
    return {};
  }

  // The conditions that hold whenever control reaches the launch being read
  // (ancestors_ ends at its call), as far as they read only the launch's
  // integer arguments: the `if` branches and loops around it, and the
  // asserts and early exits before it in each enclosing block.
  void readConstraints(CallSite &site) {
    std::function<void(CXCursor, bool)> add = [&](CXCursor condition, bool negated) {
      // `a && b` holds as `a` and `b`, `!(a || b)` as `!a` and `!b`: each
      // part on its own, so that a part reading what the launch does not
      // (`o.iters < 1 || o.threads > 1024`) leaves the others.
      CXCursor cursor = stripWrappers(condition);
      if (kindOf(cursor) == CXCursor_BinaryOperator &&
          clang_getCursorBinaryOperatorKind(cursor) ==
              (negated ? CXBinaryOperator_LOr : CXBinaryOperator_LAnd)) {
        for (CXCursor part : childrenOf(cursor))
          add(part, negated);
        return;
      }
      std::optional<Formula> holds = formulaOf(condition, 0);
      if (!holds || holds->arguments().empty())
        return;
      std::string text = textOf(condition);
      if (negated) {
        holds = Formula::unary(Formula::Op::LogicalNot, *holds);
        text = "!(" + text + ")";
      }
      site.constraints.push_back({std::move(*holds), std::move(text)});
    };
    for (size_t i = ancestors_.size() - 1; i-- > 0;) {
      CXCursor parent = ancestors_[i], child = ancestors_[i + 1];
      CXCursorKind kind = kindOf(parent);
      if (kind == CXCursor_FunctionDecl || kind == CXCursor_FunctionTemplate ||
          kind == CXCursor_LambdaExpr)
        break;
      std::vector<CXCursor> parts = childrenOf(parent);
      if (kind == CXCursor_IfStmt && parts.size() >= 2 && clang_isExpression(kindOf(parts[0]))) {
        if (clang_equalCursors(child, parts[1]))
          add(parts[0], false);
        else if (parts.size() == 3 && clang_equalCursors(child, parts[2]))
          add(parts[0], true);
      } else if ((kind == CXCursor_WhileStmt || kind == CXCursor_ForStmt) && parts.size() >= 2 &&
                 clang_equalCursors(child, parts.back())) {
        // The loop's condition holds in its body (a for without one has
        // fewer parts: its second-to-last is then not a condition).
        CXCursor condition = parts[kind == CXCursor_WhileStmt ? 0 : parts.size() - 3];
        if (kind == CXCursor_WhileStmt || parts.size() == 4)
          add(condition, false);
        if (kind == CXCursor_ForStmt && parts.size() == 4)
          addLoopVariableRange(parts[0], parts[2], site);
      } else if (kind == CXCursor_CompoundStmt && i > 0 &&
                 kindOf(ancestors_[i - 1]) == CXCursor_SwitchStmt) {
        // `case 32: case 64:` before the launch: the selector is one of them.
        std::vector<CXCursor> selector = childrenOf(ancestors_[i - 1]);
        std::optional<std::vector<int64_t>> labels = labelsReaching(parts, child);
        std::optional<Formula> value =
            labels && !labels->empty() ? formulaOf(selector.front(), 0) : std::nullopt;
        if (!value || value->arguments().empty())
          continue;
        Formula holds = Formula::constant(0);
        std::string text;
        for (int64_t label : *labels) {
          Formula equal = Formula::binary(Formula::Op::Eq, *value, Formula::constant(label));
          holds = text.empty() ? equal : Formula::binary(Formula::Op::LogicalOr, holds, equal);
          text += (text.empty() ? "" : " || ") + textOf(selector.front()) +
                  " == " + std::to_string(label);
        }
        site.constraints.push_back({std::move(holds), std::move(text)});
      } else if (kind == CXCursor_CompoundStmt) {
        for (CXCursor statement : parts) {
          if (clang_equalCursors(statement, child))
            break;
          if (std::optional<CXCursor> asserted = assertedBy(statement))
            add(*asserted, false);
          else if (std::optional<CXCursor> exitUnless = earlyExitCondition(statement))
            add(*exitUnless, true);
          else if (std::optional<CallSite::Constraint> after = conditionAfterLoop(statement))
            site.constraints.push_back(std::move(*after));
          else
            addPostconditions(statement, add);
        }
      }
    }
  }

  // `const Options o = parse(argc, argv);`, where `parse` is a function of
  // the program's whose only return, its last statement, returns a local
  // struct: the guards before that return (`if (o.threads < 32 || ...) {
  // usage(); exit(2); }`, a throw) hold of `o`'s members, read with that
  // local as `o`. Only guards that read nothing but the local and constants,
  // with nothing after them that names the local, and only while `o` itself
  // is never changed.
  void addPostconditions(CXCursor statement, const std::function<void(CXCursor, bool)> &add) {
    std::vector<CXCursor> declared = childrenOf(statement);
    if (kindOf(statement) != CXCursor_DeclStmt || declared.size() != 1 ||
        kindOf(declared[0]) != CXCursor_VarDecl)
      return;
    CXCursor variable = declared[0];
    std::string usr = usrOf(variable);
    CXCursor init = clang_Cursor_getVarDeclInitializer(variable);
    if (clang_Cursor_isNull(init) || !isStruct(clang_getCursorType(variable)) ||
        modified_.count(usr) || reassigned_.count(usr) || structWrites_.count(usr))
      return;
    std::optional<CXCursor> call = namedCall(init);
    CXCursor function =
        call ? clang_getCursorDefinition(clang_getCursorReferenced(*call)) : clang_getNullCursor();
    if (kindOf(function) != CXCursor_FunctionDecl ||
        clang_Location_isInSystemHeader(clang_getCursorLocation(function)))
      return;
    std::vector<CXCursor> parts = childrenOf(function);
    std::vector<CXCursor> body = parts.empty() || kindOf(parts.back()) != CXCursor_CompoundStmt
                                     ? std::vector<CXCursor>{}
                                     : childrenOf(parts.back());
    if (body.empty() || kindOf(body.back()) != CXCursor_ReturnStmt ||
        countOf(parts.back(), CXCursor_ReturnStmt) != 1)
      return;
    std::vector<CXCursor> returned = childrenOf(body.back());
    std::optional<CXCursor> local = returned.size() == 1 ? namedAsIs(returned[0]) : std::nullopt;
    if (!local || kindOf(*local) != CXCursor_VarDecl ||
        !clang_equalCursors(clang_getCursorSemanticParent(*local), function))
      return;
    // From the return back: what the statements after each guard may change.
    std::string returnedUsr = usrOf(*local);
    std::vector<CXCursor> guards;
    std::set<std::string> changed;
    for (size_t i = body.size() - 1; i-- > 0;) {
      std::optional<CXCursor> guard = earlyExitCondition(body[i]);
      std::set<std::string> read;
      if (guard && readsOnly(*guard, *local, read)) {
        if (std::none_of(read.begin(), read.end(), [&](const std::string &path) {
              return std::any_of(changed.begin(), changed.end(), [&](const std::string &key) {
                std::string member = returnedUsr + "." + path;
                return covers(key, member) || covers(member, key);
              });
            }))
          guards.push_back(*guard);
        continue;
      }
      collectChanges(body[i], changed);
      if (changed.count(returnedUsr))
        break;
    }
    aliases_[usrOf(*local)] = variable;
    for (CXCursor guard : guards)
      add(guard, true);
    aliases_.erase(usrOf(*local));
  }

  // The call an initializer makes.
  static std::optional<CXCursor> namedCall(CXCursor init) {
    CXCursor cursor = withoutCopy(init);
    if (kindOf(cursor) != CXCursor_CallExpr)
      return std::nullopt;
    return cursor;
  }

  // The statements or expressions of `kind` below `cursor`.
  static size_t countOf(CXCursor cursor, CXCursorKind kind) {
    size_t count = kindOf(cursor) == kind;
    for (CXCursor child : childrenOf(cursor))
      count += countOf(child, kind);
    return count;
  }

  // Whether condition `cursor` reads nothing but members of `variable`
  // (adding their paths to `read`: `o.dims.width` as "dims.width"),
  // enumerators, constants of namespace scope and the functions it calls.
  static bool readsOnly(CXCursor cursor, CXCursor variable, std::set<std::string> &read) {
    if (std::optional<MemberPath> member = memberPathOf(cursor);
        member && clang_equalCursors(member->variable, variable)) {
      read.insert(member->path);
      return true;
    }
    if (kindOf(cursor) == CXCursor_DeclRefExpr) {
      CXCursor named = clang_getCursorReferenced(cursor);
      CXCursorKind kind = kindOf(named);
      if (kind == CXCursor_EnumConstantDecl || kind == CXCursor_FunctionDecl)
        return true;
      CXCursorKind scope = kindOf(clang_getCursorSemanticParent(named));
      return kind == CXCursor_VarDecl && clang_isConstQualifiedType(clang_getCursorType(named)) &&
             (scope == CXCursor_TranslationUnit || scope == CXCursor_Namespace ||
              scope == CXCursor_StructDecl || scope == CXCursor_ClassDecl);
    }
    for (CXCursor child : childrenOf(cursor))
      if (!readsOnly(child, variable, read))
        return false;
    return true;
  }

  // Adds to `changed`, by key, the variables `cursor` may change: a
  // variable assigned, stepped, its address taken or passed to a call as it
  // is (which binds it by reference: one passed by value comes converted) by
  // its USR; a struct's member so changed by "USR.path"; a struct a method
  // is called on by its USR. Stores through pointers and into arrays change
  // no variable.
  static void collectChanges(CXCursor cursor, std::set<std::string> &changed) {
    auto keyOf = [](CXCursor expression) -> std::optional<std::string> {
      if (std::optional<MemberPath> member = memberPathOf(expression, /*ofParameters=*/true))
        return usrOf(member->variable) + "." + member->path;
      CXCursor target = stripWrappers(expression);
      if (kindOf(target) == CXCursor_DeclRefExpr)
        return usrOf(clang_getCursorReferenced(target));
      return std::nullopt;
    };
    CXCursorKind kind = kindOf(cursor);
    std::vector<CXCursor> children = childrenOf(cursor);
    CXUnaryOperatorKind unary = kind == CXCursor_UnaryOperator
                                    ? clang_getCursorUnaryOperatorKind(cursor)
                                    : CXUnaryOperator_Invalid;
    bool changes = kind == CXCursor_CompoundAssignOperator ||
                   (kind == CXCursor_BinaryOperator &&
                    clang_getCursorBinaryOperatorKind(cursor) == CXBinaryOperator_Assign) ||
                   unary == CXUnaryOperator_PostInc || unary == CXUnaryOperator_PostDec ||
                   unary == CXUnaryOperator_PreInc || unary == CXUnaryOperator_PreDec ||
                   unary == CXUnaryOperator_AddrOf;
    if (changes && !children.empty())
      if (std::optional<std::string> key = keyOf(children[0]))
        changed.insert(*key);
    if (kind == CXCursor_CallExpr) {
      for (int i = 0, n = clang_Cursor_getNumArguments(cursor); i < n; ++i) {
        CXCursor argument = clang_Cursor_getArgument(cursor, unsigned(i));
        if (kindOf(argument) == CXCursor_DeclRefExpr || kindOf(argument) == CXCursor_MemberRefExpr)
          if (std::optional<std::string> key = keyOf(argument))
            changed.insert(*key);
      }
      // `o.reset()`: a method may change the whole of its object.
      if (kindOf(clang_getCursorReferenced(cursor)) == CXCursor_CXXMethod && !children.empty() &&
          kindOf(children[0]) == CXCursor_MemberRefExpr) {
        std::vector<CXCursor> object = childrenOf(children[0]);
        if (std::optional<std::string> key = object.empty() ? std::nullopt : keyOf(object[0]))
          changed.insert(*key);
      }
    }
    for (CXCursor child : children)
      collectChanges(child, changed);
  }

  // The case labels through which control reaches statement `child` of a
  // switch's body: those since the last statement that ends control flow
  // (fallthrough included). Nothing when a default label or one that is no
  // constant is among them.
  static std::optional<std::vector<int64_t>> labelsReaching(const std::vector<CXCursor> &body,
                                                            CXCursor child) {
    std::vector<int64_t> labels;
    bool anything = false; // a default or a label of no constant value
    for (CXCursor statement : body) {
      CaseLabels stacked = caseLabelsOf(statement);
      labels.insert(labels.end(), stacked.values.begin(), stacked.values.end());
      anything = anything || stacked.isDefault || stacked.unknown;
      if (clang_equalCursors(statement, child))
        return anything ? std::nullopt : std::optional<std::vector<int64_t>>(labels);
      if (exits(lastStatementOf(statement))) {
        labels.clear();
        anything = false;
      }
    }
    return std::nullopt;
  }

  // `for (v = A; ...; step)` with v passed to the launch, A a constant or a
  // formula (`j = k >> 1` of an outer loop's k): v >= A where the step
  // grows v, v <= A where it shrinks it; v is a power of two where it is
  // doubled or halved from one (from A, where A is); and v - A is a multiple
  // of a step that adds or subtracts more than 1.
  void addLoopVariableRange(CXCursor init, CXCursor step, CallSite &site) {
    std::optional<LoopStart> started = loopStartOf(init);
    if (!started)
      return;
    auto bound = bound_.find(usrOf(started->variable));
    std::optional<Formula> first =
        bound == bound_.end() ? std::nullopt : formulaOf(started->value, 0);
    std::optional<LoopStep> stepped = first ? loopStep(step, started->variable) : std::nullopt;
    // `for (n = n / 2; ...)`: a start read from the variable itself is its
    // value before the loop, which no argument passes.
    std::vector<uint32_t> read = first ? first->arguments() : std::vector<uint32_t>{};
    if (!stepped || std::count(read.begin(), read.end(), bound->second))
      return;
    std::string name = spellingOf(started->variable);
    std::optional<int64_t> constant = constantValue(*first);
    std::string from = constant ? std::to_string(*constant) : textOf(started->value);
    Formula v = Formula::argument(bound->second);
    site.constraints.push_back(
        {Formula::binary(stepped->grows() ? Formula::Op::Ge : Formula::Op::Le, v, *first),
         name + (stepped->grows() ? " >= " : " <= ") + from});
    auto isPowerOfTwo = [](int64_t x) { return x > 0 && (x & (x - 1)) == 0; };
    auto powerOfTwo = [](const Formula &x) {
      return Formula::binary(
          Formula::Op::Eq,
          Formula::binary(Formula::Op::And, x,
                          Formula::binary(Formula::Op::Sub, x, Formula::constant(1))),
          Formula::constant(0));
    };
    bool byPowersOfTwo = ((stepped->op == Formula::Op::Mul || stepped->op == Formula::Op::Div) &&
                          isPowerOfTwo(stepped->amount)) ||
                         stepped->op == Formula::Op::Shl || stepped->op == Formula::Op::Shr;
    if (byPowersOfTwo && constant && isPowerOfTwo(*constant))
      site.constraints.push_back({powerOfTwo(v), name + " is a power of two"});
    else if (byPowersOfTwo && !constant)
      site.constraints.push_back(
          {Formula::binary(Formula::Op::LogicalOr,
                           Formula::unary(Formula::Op::LogicalNot, powerOfTwo(*first)),
                           powerOfTwo(v)),
           name + " is a power of two where " + from + " is"});
    if ((stepped->op == Formula::Op::Add || stepped->op == Formula::Op::Sub) && stepped->amount > 1)
      site.constraints.push_back(
          {Formula::binary(Formula::Op::Eq,
                           Formula::binary(Formula::Op::Rem,
                                           Formula::binary(Formula::Op::Sub, v, *first),
                                           Formula::constant(stepped->amount)),
                           Formula::constant(0)),
           name + " steps by " + std::to_string(stepped->amount) + " from " + from});
  }

  // What holds after a loop before the launch, from the ways it ends: its
  // condition c is false where it ends at its test (`while (!isPowerOfTwo(n))
  // std::cin >> n;`, `do ... while (n % 32);`), and the condition of the `if`
  // whose branch is a break holds where it ends there (`while (true) { ...;
  // if (n > 0) break; }`). One or the other: `!(c) || d`. A break that is
  // not the end of an if's branch, one whose branch also names what its
  // condition reads, or a goto, and the loop says nothing. A break in the
  // else of `if (c)` with the loop's own condition ends it as the test does.
  std::optional<CallSite::Constraint> conditionAfterLoop(CXCursor loop) {
    CXCursorKind kind = kindOf(loop);
    std::vector<CXCursor> parts = childrenOf(loop);
    std::optional<CXCursor> test, body;
    if (kind == CXCursor_WhileStmt && parts.size() == 2)
      test = parts[0], body = parts[1];
    else if (kind == CXCursor_DoStmt && parts.size() == 2)
      body = parts[0], test = parts[1];
    else if (kind == CXCursor_ForStmt && parts.size() == 1)
      body = parts[0]; // for (;;)
    if (!body || (test && !clang_isExpression(kindOf(*test))))
      return std::nullopt;
    std::optional<Formula> tested = test ? formulaOf(*test, 0) : Formula::constant(1);
    std::optional<int64_t> always = tested ? constantValue(*tested) : std::nullopt;
    if (!tested || (always && *always == 0))
      return std::nullopt;
    std::optional<Formula> ends;
    std::string text;
    auto either = [&](Formula holds, const std::string &written) {
      ends = ends ? Formula::binary(Formula::Op::LogicalOr, *ends, holds) : holds;
      text += (text.empty() ? "" : " || ") + written;
    };
    if (!always)
      either(Formula::unary(Formula::Op::LogicalNot, *tested), negatedText(*test));
    std::vector<LoopBreak> breaks;
    if (!breaksOf(*body, breaks))
      return std::nullopt;
    for (const LoopBreak &taken : breaks) {
      std::vector<CXCursor> branch = childrenOf(taken.branchOf);
      CXCursor condition = branch.front();
      if (taken.inElse && test && withoutSpaces(textOf(condition)) == withoutSpaces(textOf(*test)))
        continue; // where the loop's own test fails
      std::optional<Formula> holds = formulaOf(condition, 0);
      if (!holds)
        return std::nullopt;
      if (taken.inElse)
        holds = Formula::unary(Formula::Op::LogicalNot, *holds);
      either(*holds, taken.inElse ? negatedText(condition) : textOf(condition));
    }
    if (!ends || ends->arguments().empty())
      return std::nullopt;
    return CallSite::Constraint{std::move(*ends), std::move(text)};
  }

  // A condition's negation as text: `!(n > 0)`, and `isPowerOfTwo(n)` for
  // `!isPowerOfTwo(n)`.
  std::string negatedText(CXCursor condition) {
    CXCursor cursor = stripWrappers(condition);
    std::vector<CXCursor> operand = childrenOf(cursor);
    if (kindOf(cursor) == CXCursor_UnaryOperator &&
        clang_getCursorUnaryOperatorKind(cursor) == CXUnaryOperator_LNot && operand.size() == 1)
      return textOf(operand[0]);
    return "!(" + textOf(condition) + ")";
  }

  // A break that leaves the loop being read: the `if` whose branch (then or
  // else) it is.
  struct LoopBreak {
    CXCursor branchOf;
    bool inElse;
  };
  // The breaks below `statement` that leave its loop (not those of loops or
  // switches inside it). False where one is not a branch of an if to itself
  // (alone, or last of a block whose other statements name no variable its
  // condition reads), or where a goto may leave.
  static bool breaksOf(CXCursor statement, std::vector<LoopBreak> &breaks) {
    switch (kindOf(statement)) {
    case CXCursor_BreakStmt:
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
      return false;
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
    case CXCursor_CXXForRangeStmt:
    case CXCursor_SwitchStmt:
    case CXCursor_LambdaExpr:
      return !containsGoto(statement);
    case CXCursor_IfStmt: {
      std::vector<CXCursor> parts = childrenOf(statement);
      for (size_t i = 1; i < parts.size(); ++i) {
        if (endsInBreak(parts[i], parts[0]))
          breaks.push_back({statement, i == 2});
        else if (!breaksOf(parts[i], breaks))
          return false;
      }
      return true;
    }
    default:
      for (CXCursor child : childrenOf(statement))
        if (!breaksOf(child, breaks))
          return false;
      return true;
    }
  }

  static bool containsGoto(CXCursor statement) {
    bool found = false;
    walk(statement, [&](CXCursor cursor) {
      found = found || kindOf(cursor) == CXCursor_GotoStmt ||
              kindOf(cursor) == CXCursor_IndirectGotoStmt;
    });
    return found;
  }

  // Whether `branch` is a break, or a block ending in one whose other
  // statements name no variable `condition` reads (`{ printf("ok\n");
  // break; }`) and hold no other break or goto.
  static bool endsInBreak(CXCursor branch, CXCursor condition) {
    if (kindOf(branch) == CXCursor_BreakStmt)
      return true;
    std::vector<CXCursor> statements = childrenOf(branch);
    if (kindOf(branch) != CXCursor_CompoundStmt || statements.empty() ||
        kindOf(statements.back()) != CXCursor_BreakStmt)
      return false;
    std::set<std::string> read;
    walk(condition, [&](CXCursor cursor) {
      if (kindOf(cursor) == CXCursor_DeclRefExpr)
        read.insert(usrOf(clang_getCursorReferenced(cursor)));
    });
    bool independent = true;
    auto check = [&](CXCursor cursor) {
      CXCursorKind kind = kindOf(cursor);
      independent =
          independent && kind != CXCursor_BreakStmt && kind != CXCursor_GotoStmt &&
          !(kind == CXCursor_DeclRefExpr && read.count(usrOf(clang_getCursorReferenced(cursor))));
    };
    for (size_t i = 0; i + 1 < statements.size(); ++i) {
      check(statements[i]);
      walk(statements[i], check);
    }
    return independent;
  }

  // `assert(c)` as the C library expands it (`c ? void(0) : __assert_fail(...)`): c.
  static std::optional<CXCursor> assertedBy(CXCursor statement) {
    CXCursor cursor = stripWrappers(statement);
    std::vector<CXCursor> parts = childrenOf(cursor);
    if (kindOf(cursor) != CXCursor_ConditionalOperator || parts.size() != 3)
      return std::nullopt;
    CXCursor failure = stripWrappers(parts[2]);
    std::string callee = spellingOf(clang_getCursorReferenced(failure));
    if (kindOf(failure) != CXCursor_CallExpr || callee.find("assert") == std::string::npos)
      return std::nullopt;
    return parts[0];
  }

  // `if (c) { ...; return; }` (or exit, abort, throw, break, continue) with
  // no else: the code after it runs only when c is false. c.
  static std::optional<CXCursor> earlyExitCondition(CXCursor statement) {
    std::vector<CXCursor> parts = childrenOf(statement);
    if (kindOf(statement) != CXCursor_IfStmt || parts.size() != 2 ||
        !clang_isExpression(kindOf(parts[0])) || !exits(parts[1]))
      return std::nullopt;
    return parts[0];
  }

  static bool exits(CXCursor statement) {
    switch (kindOf(statement)) {
    case CXCursor_ReturnStmt:
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt:
    case CXCursor_CXXThrowExpr:
      return true;
    case CXCursor_CompoundStmt: {
      std::vector<CXCursor> statements = childrenOf(statement);
      return !statements.empty() && exits(statements.back());
    }
    default: {
      // A throw of a temporary (`throw std::invalid_argument("...")`) comes
      // wrapped in its cleanups.
      CXCursor call = stripWrappers(statement);
      if (kindOf(call) == CXCursor_CXXThrowExpr)
        return true;
      static const std::set<std::string> noReturn = {"exit", "abort", "_Exit", "quick_exit",
                                                     "__assert_fail"};
      return kindOf(call) == CXCursor_CallExpr &&
             noReturn.count(spellingOf(clang_getCursorReferenced(call)));
    }
    }
  }
};

// clang's first error in a parse, formatted with its location. Its refusals
// of shared declarations that nvcc accepts, in the file or its headers, which
// simulee's compiles rewrite (ir/LaunchSyntax.h), are no error: their places
// are added to `refused`.
std::optional<std::string> firstErrorOf(CXTranslationUnit unit,
                                        ir::RefusedSharedDeclarationsByFile &refused) {
  std::optional<std::string> first;
  for (unsigned i = 0, n = clang_getNumDiagnostics(unit); i < n; ++i) {
    CXDiagnostic diagnostic = clang_getDiagnostic(unit, i);
    if (clang_getDiagnosticSeverity(diagnostic) >= CXDiagnostic_Error) {
      CXFile file = nullptr;
      unsigned line = 0, column = 0;
      clang_getSpellingLocation(clang_getDiagnosticLocation(diagnostic), &file, &line, &column,
                                nullptr);
      std::string spelling = take(clang_getDiagnosticSpelling(diagnostic));
      std::string name = file ? take(clang_getFileName(file)) : "";
      if (file && spelling == ir::kUnconstructedSharedError)
        refused[name].unconstructed.push_back({line, column});
      else if (file && spelling == ir::kMisplacedAttributeError)
        refused[name].alignedAfterShared.push_back({line, column});
      else if (!first)
        first = take(clang_formatDiagnostic(diagnostic, CXDiagnostic_DisplaySourceLocation |
                                                            CXDiagnostic_DisplayColumn));
    }
    clang_disposeDiagnostic(diagnostic);
  }
  return first;
}

// The -I directories among clang arguments.
using ir::includeDirsOf;

bool isIdentifierChar(char ch) {
  return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
}

// The identifier that ends just before `end` (after skipping spaces and one
// `<...>` of template arguments when `skipTemplate`), or "".
std::string identifierBefore(const std::string &text, size_t end, bool skipTemplate) {
  auto skipSpaces = [&] {
    while (end > 0 && std::isspace(static_cast<unsigned char>(text[end - 1])))
      --end;
  };
  skipSpaces();
  if (skipTemplate && end > 0 && text[end - 1] == '>') {
    size_t open = text.rfind('<', end - 1);
    if (open == std::string::npos || end - open > 256 ||
        text.find_first_of(";{}()", open) < end - 1)
      return "";
    end = open;
    skipSpaces();
  }
  size_t begin = end;
  while (begin > 0 && isIdentifierChar(text[begin - 1]))
    --begin;
  if (begin == end || std::isdigit(static_cast<unsigned char>(text[begin])))
    return "";
  return text.substr(begin, end - begin);
}

// The kernels a text launches by name: `k<<<`, `k<T, 4><<<`,
// `cudaLaunchKernel((void *)k,` and `cudaLaunchCooperativeKernel(&k,`.
// Scanned by hand: a regular expression recurses per character matched.
void addLaunchedNames(const std::string &source, std::set<std::string> &names) {
  std::optional<std::string> joined = ir::joinedLaunchChevrons(source);
  const std::string &text = joined ? *joined : source;
  for (size_t at = text.find("<<<"); at != std::string::npos; at = text.find("<<<", at + 3))
    if (std::string name = identifierBefore(text, at, true); !name.empty())
      names.insert(name);
  for (size_t at = text.find("cudaLaunch"); at != std::string::npos;
       at = text.find("cudaLaunch", at + 1)) {
    bool launch = text.compare(at, 16, "cudaLaunchKernel") == 0 ||
                  text.compare(at, 27, "cudaLaunchCooperativeKernel") == 0;
    size_t open = text.find('(', at);
    if (!launch || open == std::string::npos || open - at > 64)
      continue;
    size_t first = text.find(',', open);
    if (first == std::string::npos || first - open > 256)
      continue;
    // The first argument's last identifier: `(void *)k`, `&k`, `k`.
    if (std::string name = identifierBefore(text, first, false); !name.empty())
      names.insert(name);
  }
}

// The functions of external linkage a file's own code defines at namespace
// scope, kernels left out: what the program's other files may call. USR ->
// name; `main` is whether the file defines main (it is then a program).
// `kernels`: the kernels it defines (not templates), which other files may
// launch where they declare them: device symbol -> name.
struct DefinedFunctions {
  std::map<std::string, std::string> names;
  std::map<std::string, std::string> kernels;
  bool main = false;
};

DefinedFunctions definedFunctionsOf(CXTranslationUnit unit) {
  DefinedFunctions defined;
  std::vector<CXCursor> scopes = {clang_getTranslationUnitCursor(unit)};
  while (!scopes.empty()) {
    CXCursor scope = scopes.back();
    scopes.pop_back();
    for (CXCursor cursor : childrenOf(scope)) {
      CXCursorKind kind = kindOf(cursor);
      if (clang_Location_isInSystemHeader(clang_getCursorLocation(cursor)))
        continue;
      if (kind == CXCursor_Namespace || kind == CXCursor_LinkageSpec) {
        scopes.push_back(cursor);
        continue;
      }
      if (kind != CXCursor_FunctionDecl || !clang_isCursorDefinition(cursor) ||
          clang_getCursorLinkage(cursor) != CXLinkage_External)
        continue;
      std::string name = spellingOf(cursor);
      if (isKernel(cursor)) {
        defined.kernels.emplace(deviceSymbol(take(clang_Cursor_getMangling(cursor))), name);
        continue;
      }
      defined.main |= name == "main";
      defined.names.emplace(usrOf(cursor), std::move(name));
    }
  }
  return defined;
}

// Whether `text` holds `name` as a whole identifier.
bool namesIdentifier(const std::string &text, const std::string &name) {
  for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    size_t end = at + name.size();
    if ((at == 0 || !isIdentifierChar(text[at - 1])) &&
        (end == text.size() || !isIdentifierChar(text[end])))
      return true;
  }
  return false;
}

} // namespace

std::vector<std::string> includeClosure(const std::string &path,
                                        const std::vector<std::string> &includeDirs) {
  return ir::includeClosureOf(path, includeDirs).files;
}

bool mayLaunchKernels(const std::string &path, const std::vector<std::string> &includeDirs,
                      const std::vector<std::string> &others) {
  std::string own;
  for (const std::string &file : includeClosure(path, includeDirs)) {
    std::string text = readWholeFile(file);
    // Occupancy and attribute calls name kernels too: where they are the
    // only names, the kernels are measured, not launched (measuredOnly).
    for (const char *launch : {"<<<", "cudaLaunchKernel", "cudaLaunchCooperativeKernel",
                               "cudaOccupancy", "cudaFuncGetAttributes"})
      if (text.find(launch) != std::string::npos)
        return true;
    if (ir::joinedLaunchChevrons(text))
      return true;
    own += text;
  }
  std::set<std::string> launched;
  for (const std::string &file : others)
    addLaunchedNames(readWholeFile(file), launched);
  return std::any_of(launched.begin(), launched.end(),
                     [&](const std::string &name) { return namesIdentifier(own, name); });
}

// Launches written in templates, from the compiled host code (every
// instantiation, dims folded). `args` and `tail`: the host parse's
// arguments before and after its PCH.
std::optional<CompiledLaunches>
compiledLaunchesOf(const std::string &path, std::vector<std::string> args,
                   const std::vector<std::string> &tail, const std::string &includeDir,
                   const ir::RefusedSharedDeclarationsByFile &refused) {
  args.insert(args.end(), {"-O0", "-Xclang", "-disable-O0-optnone", "-gline-tables-only"});
  std::optional<std::string> pch = ir::wrapperPch(args, {includeDir});
  if (pch)
    args.insert(args.end(), {"-Xclang", "-include-pch", "-Xclang", *pch});
  args.insert(args.end(), tail.begin(), tail.end());
  Result<ir::CompileInput> input = ir::CompileInput::of(path, refused);
  if (!input)
    return std::nullopt;
  std::vector<std::string> inputArgs = input->arguments();
  args.push_back("-c");
  args.insert(args.end(), inputArgs.begin(), inputArgs.end());
  return launchesInHostIr(args, path);
}

// The compiled code's launches of kernels no launch read from the syntax
// tree names.
void addCompiledLaunches(CompiledLaunches compiled, HostCode &host) {
  std::set<std::string> read;
  for (const CallSite &site : host.sites)
    read.insert(site.mangledName.empty() ? site.kernel : site.mangledName);
  for (CallSite &site : compiled.sites)
    if (!read.count(site.mangledName) && !read.count(site.kernel))
      host.sites.push_back(std::move(site));
  host.compiledLaunches = std::move(compiled.kernels);
}

// A launch read once per chain of calls reaching the function that holds
// it, with the same values each time (`reduce(d_x, method)` called from
// three places, its launch in a `switch`), is one launch to judge.
void dropRepeatedSites(std::vector<CallSite> &sites) {
  std::vector<CallSite> distinct;
  for (CallSite &site : sites)
    if (std::find(distinct.begin(), distinct.end(), site) == distinct.end())
      distinct.push_back(std::move(site));
  sites = std::move(distinct);
}

Result<HostCode> readCallSites(const std::string &path,
                               const std::vector<std::string> &extraClangArgs,
                               const std::string &cudaPath,
                               const std::vector<std::string> &otherFiles,
                               const std::vector<std::string> &neighbours) {
  // An #include of a FIFO would block libclang's parse for ever.
  ir::IncludeClosure closure = ir::includeClosureOf(path, includeDirsOf(extraClangArgs));
  if (!closure.unreadable.empty())
    return makeError(closure.unreadable);
  Result<std::string> includeDir = ir::deviceHeaderDirectory();
  if (!includeDir)
    return includeDir.error();
  Result<std::optional<ir::CudaInstallation>> cuda = ir::findCudaInstallation(cudaPath);
  if (!cuda)
    return cuda.error();
  // The headers of the device compile (NVIDIA's when simulee has them), so
  // that host code using CUB, Thrust or cuda_fp16 types parses; the wrapper
  // precompiled once, as for the device compile.
  std::vector<std::string> args = {ir::clangPath(), "-x", "cuda", "--cuda-host-only",
                                   ir::kDeviceCodeArchFlag};
  std::vector<std::string> headerArgs = ir::cudaHeaderArgs(*cuda, *includeDir);
  args.insert(args.end(), headerArgs.begin(), headerArgs.end());
  std::optional<std::string> pch =
      *cuda ? ir::wrapperPch(args, {*includeDir}) : std::optional<std::string>();
  std::vector<std::string> tail = ir::nvccCompatIncludeArgs(*cuda);
  tail.insert(tail.end(), extraClangArgs.begin(), extraClangArgs.end());

  std::unique_ptr<void, void (*)(CXIndex)> index(clang_createIndex(0, 0), clang_disposeIndex);
  auto parseFile = [&](const std::string &file, bool withPch) {
    // Spaced launch chevrons (`k << <g, b >> > (...)`) are read joined.
    std::optional<std::string> joined = ir::joinedLaunchChevrons(readWholeFile(file));
    CXUnsavedFile unsaved{file.c_str(), joined ? joined->data() : nullptr,
                          joined ? (unsigned long)joined->size() : 0};
    // libclang: no program name; its resource directory named (CMakeLists).
    std::vector<std::string> command = {"-resource-dir", SIMULEE_LIBCLANG_RESOURCE_DIR};
    command.insert(command.end(), args.begin() + 1, args.end());
    if (withPch)
      command.insert(command.end(), {"-Xclang", "-include-pch", "-Xclang", *pch});
    command.insert(command.end(), tail.begin(), tail.end());
    std::vector<const char *> argv;
    for (const std::string &arg : command)
      argv.push_back(arg.c_str());
    CXTranslationUnit unit = nullptr;
    CXErrorCode code = clang_parseTranslationUnit2(
        index.get(), file.c_str(), argv.data(), int(argv.size()), joined ? &unsaved : nullptr,
        joined ? 1 : 0, CXTranslationUnit_KeepGoing, &unit);
    return std::pair(code, unit);
  };
  auto parse = [&](bool withPch) { return parseFile(path, withPch); };
  auto [code, unit] = parse(pch.has_value());
  bool parsed = code == CXError_Success && unit;
  ir::RefusedSharedDeclarationsByFile refused;
  std::optional<std::string> firstError = parsed ? firstErrorOf(unit, refused) : std::nullopt;
  bool stale = parsed && firstError && ir::isStaleWrapperPch(*firstError);
  bool withPch = pch.has_value();
  if (pch && (stale || !parsed)) {
    withPch = false;
    // Read again without the PCH; a stale one goes, the next read builds it.
    if (stale) {
      clang_disposeTranslationUnit(unit);
      ir::discardWrapperPch(*pch);
    }
    std::tie(code, unit) = parse(false);
    parsed = code == CXError_Success && unit;
    refused = {};
    firstError = parsed ? firstErrorOf(unit, refused) : std::nullopt;
  }
  if (!parsed)
    return makeError(path + ": cannot read the host code (libclang error " +
                     std::to_string(int(code)) + ")");
  HostCode host;
  // The calls the program's other files make of functions this one
  // defines (its kernels' launchers, called from a main elsewhere). A
  // neighbour is read only for a file with no main of its own, and only
  // when its text names a function the file defines.
  DefinedFunctions defined = definedFunctionsOf(unit);
  std::vector<std::pair<std::string, bool>> others; // file, a neighbour
  for (const std::string &file : otherFiles)
    others.emplace_back(file, false);
  if (otherFiles.empty() && !defined.main && (!defined.names.empty() || !defined.kernels.empty()))
    for (const std::string &file : neighbours) {
      std::string text = readWholeFile(file);
      std::set<std::string> launched;
      addLaunchedNames(text, launched);
      if (std::any_of(defined.names.begin(), defined.names.end(),
                      [&](const auto &entry) { return namesIdentifier(text, entry.second); }) ||
          std::any_of(defined.kernels.begin(), defined.kernels.end(),
                      [&](const auto &kernel) { return launched.count(kernel.second); }))
        others.emplace_back(file, true);
    }
  // The launches other files make of the file's kernels, which they declare
  // (`hello<<<n, 1>>>(d, n)` in a main.cu that includes "hello.h"). A
  // neighbour is read for them only where its text launches one by name.
  std::vector<CallSite> launchedElsewhere;
  std::map<std::string, std::set<Reader::LauncherCall>> external;
  for (const auto &[file, neighbour] : others) {
    // As for `path`: a FIFO it #includes would block the parse. A file the
    // caller named fails the read; a neighbour is passed over.
    ir::IncludeClosure included = ir::includeClosureOf(file, includeDirsOf(extraClangArgs));
    if (!included.unreadable.empty()) {
      if (!neighbour) {
        clang_disposeTranslationUnit(unit);
        return makeError(included.unreadable);
      }
      continue;
    }
    auto [otherCode, other] = parseFile(file, withPch);
    if (otherCode != CXError_Success || !other)
      continue;
    Reader calls(other);
    bool calling = false;
    // Not a kernel of its own of the same name and type.
    DefinedFunctions its = definedFunctionsOf(other);
    for (CallSite &site : calls.read())
      if (defined.kernels.count(site.mangledName) && !its.kernels.count(site.mangledName)) {
        launchedElsewhere.push_back(std::move(site));
        calling = true;
      }
    for (auto &[usr, made] : calls.externalCalls())
      if (!neighbour || defined.names.count(usr)) {
        external[usr].insert(made.begin(), made.end());
        calling |= defined.names.count(usr) > 0;
      }
    if (calling)
      for (const std::string &included : included.files)
        addLaunchedNames(readWholeFile(included), host.launchedInText);
    if (neighbour && calling)
      host.neighboursRead.push_back(file);
    clang_disposeTranslationUnit(other);
  }
  host.firstError = firstError.value_or("");
  Reader reader(unit, {}, &external);
  host.sites = reader.read();
  std::optional<CompiledLaunches> compiled;
  if (reader.launchesInTemplates() && host.firstError.empty())
    compiled = compiledLaunchesOf(path, args, tail, *includeDir, refused);
  if (compiled && !compiled->sites.empty() && reader.readsDependentNames()) {
    // Read again, knowing which instantiations the dependent names make.
    Reader again(unit, compiled->sites, &external);
    host.sites = again.read();
    reader = std::move(again);
  }
  host.sites.insert(host.sites.end(), launchedElsewhere.begin(), launchedElsewhere.end());
  for (CallSite &site : host.sites)
    site.sharedOptIn = reader.sharedOptIns().count(site.kernel) > 0;
  host.measuredOnly = reader.measuredOnly();
  host.definesMain = reader.definesMain();
  host.namedFunctions = reader.takeNamedFunctions();
  host.ruledOut = reader.ruledOut();
  clang_disposeTranslationUnit(unit);
  for (const std::string &file : closure.files)
    addLaunchedNames(readWholeFile(file), host.launchedInText);
  if (compiled)
    addCompiledLaunches(std::move(*compiled), host);
  dropRepeatedSites(host.sites);
  return host;
}

} // namespace simulee::host
