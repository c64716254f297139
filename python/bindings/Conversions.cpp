#include "Conversions.h"

#include "report/FindingText.h"

#include <pybind11/stl.h>

#include <cstring>
#include <map>

namespace simulee::python {
namespace {

template <class T> py::array_t<T> column(const std::vector<T> &values) {
  py::array_t<T> array(py::ssize_t(values.size()));
  if (!values.empty())
    std::memcpy(array.mutable_data(), values.data(), values.size() * sizeof(T));
  return array;
}

py::tuple dim3Tuple(const interp::Dim3 &d) { return py::make_tuple(d.x, d.y, d.z); }

const char *valueKindName(ir::ValueKind kind) {
  switch (kind) {
  case ir::ValueKind::Int:
    return "int";
  case ir::ValueKind::Float:
    return "float";
  case ir::ValueKind::Pointer:
    return "pointer";
  case ir::ValueKind::Aggregate:
    return "struct";
  }
  return "?";
}

std::string scalarTypeName(ir::ValueKind kind, uint32_t bits, bool isSigned) {
  if (kind == ir::ValueKind::Float)
    return bits == 16 ? "half" : bits == 64 ? "double" : "float";
  if (kind == ir::ValueKind::Int) {
    if (bits == 1)
      return "bool";
    return std::string(isSigned ? "int" : "uint") + std::to_string(bits);
  }
  if (kind == ir::ValueKind::Pointer)
    return "void *";
  return bits ? "struct(" + std::to_string(bits / 8) + " bytes)" : "struct";
}

// numpy's name for a pointee type; empty when there is none (raw bytes).
std::string numpyTypeOf(const ir::ParamInfo &param) {
  uint32_t bytes = param.elementBytes;
  if (param.elementKind == ir::ValueKind::Float && (bytes == 2 || bytes == 4 || bytes == 8))
    return "float" + std::to_string(bytes * 8);
  if (param.elementKind == ir::ValueKind::Int &&
      (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8))
    return (param.elementSigned ? "int" : "uint") + std::to_string(bytes * 8);
  if (param.elementKind == ir::ValueKind::Pointer)
    return "uint64";
  return "";
}

py::dict siteDict(const ir::Program &program, const detect::Finding &finding,
                  const detect::Site &site) {
  py::dict dict;
  const ir::SourceLocation *location = site.instruction < program.instructions.size()
                                           ? &program.instructions[site.instruction].location
                                           : nullptr;
  bool known = location && location->known();
  dict["file"] = known ? py::object(text(location->file)) : py::none();
  dict["directory"] = known ? py::object(py::str(location->directory)) : py::none();
  dict["line"] = known ? py::object(py::int_(location->line)) : py::none();
  dict["column"] = known ? py::object(py::int_(location->column)) : py::none();
  dict["function"] = text(program.functionName(site.instruction));
  dict["action"] = report::siteAction(program, site);
  dict["thread"] = dim3Tuple(report::threadCoordinates(finding, site));
  dict["block"] = dim3Tuple(report::blockCoordinates(finding, site));
  dict["thread_linear"] = site.thread;
  dict["block_linear"] = site.block;
  dict["instruction"] = site.instruction;
  dict["code"] = text(program.instructionText(site.instruction));
  return dict;
}

} // namespace

py::list builtinsRead(const ir::KernelInfo &kernel) {
  static const char *names[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
  static const char *axes[] = {"x", "y", "z"};
  py::list list;
  for (unsigned variable = 0; variable < 4; ++variable)
    for (unsigned axis = 0; axis < 3; ++axis)
      if (kernel.readsBuiltin[variable][axis])
        list.append(std::string(names[variable]) + "." + axes[axis]);
  return list;
}

std::string typeName(const ir::ParamInfo &param) {
  if (param.kind != ir::ValueKind::Pointer)
    return scalarTypeName(param.kind, param.byValueBytes ? param.byValueBytes * 8 : param.bits,
                          param.isSigned);
  std::string element =
      param.elementBytes == 0
          ? "void"
          : scalarTypeName(param.elementKind, param.elementBytes * 8, param.elementSigned);
  if (param.elementKind == ir::ValueKind::Pointer)
    element = "void *";
  return (param.isConst ? "const " : "") + element + " *";
}

py::str text(const std::string &bytes) {
  PyObject *decoded = PyUnicode_DecodeUTF8(bytes.data(), py::ssize_t(bytes.size()), "replace");
  if (!decoded)
    throw py::error_already_set();
  return py::reinterpret_steal<py::str>(decoded);
}

py::dict kernelDict(const ir::KernelInfo &kernel) {
  py::list parameters;
  for (const ir::ParamInfo &param : kernel.params) {
    py::dict p;
    p["name"] = text(param.name);
    p["kind"] = valueKindName(param.kind);
    p["type"] = typeName(param);
    p["bits"] = param.bits;
    p["is_pointer"] = param.kind == ir::ValueKind::Pointer;
    p["is_const"] = param.isConst;
    p["element_bytes"] = param.elementBytes;
    std::string dtype = param.kind == ir::ValueKind::Pointer ? numpyTypeOf(param) : "";
    p["dtype"] = dtype.empty() ? py::object(py::none()) : py::object(py::str(dtype));
    parameters.append(p);
  }
  py::dict dict;
  dict["name"] = text(kernel.sourceName);
  dict["symbol"] = text(kernel.name);
  dict["file"] = kernel.location.known() ? py::object(text(kernel.location.file)) : py::none();
  dict["line"] = kernel.location.known() ? py::object(py::int_(kernel.location.line)) : py::none();
  dict["parameters"] = parameters;
  dict["builtins_read"] = builtinsRead(kernel);
  dict["barriers"] = kernel.barrierInstructions.size();
  dict["unsupported"] = text(kernel.unsupported);
  dict["notes"] = kernel.notes;
  return dict;
}

py::dict launchDict(const detect::LaunchRecord &launch) {
  py::dict args;
  for (const auto &[name, value] : launch.args)
    args[text(name)] = text(value);
  py::dict dict;
  dict["grid"] = dim3Tuple(launch.grid);
  dict["block"] = dim3Tuple(launch.block);
  dict["shared_bytes"] = launch.dynamicSharedBytes;
  dict["args"] = args;
  dict["seed"] = launch.seed;
  dict["provenance"] = detect::provenanceName(launch.provenance);
  dict["origin"] = launch.origin ? py::object(py::str(launch.origin->file + ":" +
                                                      std::to_string(launch.origin->line)))
                                 : py::none();
  return dict;
}

py::dict findingDict(const ir::Program &program, const detect::Finding &finding) {
  py::dict dict;
  dict["kind"] = detect::findingKindName(finding.kind);
  dict["subkind"] = finding.subkind.empty() ? py::object(py::none()) : py::str(finding.subkind);
  dict["is_bug"] = detect::isBug(finding); // a warning: a bug kind, and not benign
  const char *benign = detect::benignName(finding.benign);
  dict["benign"] = benign ? py::object(py::str(benign)) : py::none();
  dict["space"] = interp::memSpaceName(finding.space);
  dict["variable"] = text(finding.variable);
  dict["example_offset"] = report::isAboutMemory(finding.kind)
                               ? py::object(py::int_(finding.exampleOffset))
                               : py::none();
  py::list sites;
  for (const detect::Site &site : finding.sites)
    sites.append(siteDict(program, finding, site));
  dict["sites"] = sites;
  dict["message"] = text(report::findingMessage(program, finding));
  dict["detail"] = text(finding.detail);
  dict["launch"] = launchDict(finding.launch);
  py::list repairs;
  for (const detect::Repair &repair : finding.repairs) {
    py::dict entry;
    entry["kind"] = text(repair.kind);
    entry["description"] = text(repair.description);
    entry["file"] = text(repair.at.file);
    entry["line"] = repair.at.line;
    entry["inserted"] = repair.inserted.empty() ? py::object(py::none()) : py::str(repair.inserted);
    py::list replaced, launches;
    for (const ir::SourceLocation &location : repair.replaced)
      replaced.append(location.line);
    for (const detect::LaunchRecord &launch : repair.launches)
      launches.append(launchDict(launch));
    entry["replaced_lines"] = replaced;
    entry["launches"] = launches;
    repairs.append(entry);
  }
  dict["repairs"] = repairs;
  return dict;
}

py::array bufferArray(const ir::ParamInfo &param, const std::vector<uint8_t> &bytes) {
  std::string dtypeName = numpyTypeOf(param);
  uint32_t elementBytes = param.elementBytes;
  if (dtypeName.empty() || bytes.size() % elementBytes != 0) {
    // Structs (or a ragged tail): one row of raw bytes per element.
    py::ssize_t width = elementBytes && bytes.size() % elementBytes == 0 ? elementBytes : 1;
    py::array_t<uint8_t> raw({py::ssize_t(bytes.size()) / width, width});
    if (!bytes.empty())
      std::memcpy(raw.mutable_data(), bytes.data(), bytes.size());
    return width == 1 ? py::array(raw.attr("reshape")(-1)) : py::array(raw);
  }
  py::dtype dtype = py::dtype::from_args(py::str(dtypeName));
  py::array array(dtype, std::vector<py::ssize_t>{py::ssize_t(bytes.size() / elementBytes)});
  if (!bytes.empty())
    std::memcpy(array.mutable_data(), bytes.data(), bytes.size());
  return array;
}

py::dict tupleTable(const ir::Program &program, const ir::KernelInfo &kernel,
                    const memmodel::TupleColumns &columns) {
  size_t count = columns.space.size();
  std::map<std::pair<uint8_t, uint32_t>, int32_t> variableIndex;
  std::vector<std::string> variableNames;
  std::vector<int32_t> variable(count);
  std::vector<uint32_t> line(count), columnNumber(count);
  for (size_t i = 0; i < count; ++i) {
    auto key = std::make_pair(columns.space[i], columns.buffer[i]);
    auto [it, inserted] = variableIndex.try_emplace(key, int32_t(variableNames.size()));
    if (inserted)
      variableNames.push_back(
          interp::bufferName(program, kernel, interp::MemSpace(key.first), key.second));
    variable[i] = it->second;
    uint32_t instruction = columns.instruction[i];
    if (instruction < program.instructions.size()) {
      line[i] = program.instructions[instruction].location.line;
      columnNumber[i] = program.instructions[instruction].location.column;
    }
  }
  py::dict table;
  table["space"] = column(columns.space);
  table["action"] = column(columns.action);
  table["buffer"] = column(columns.buffer);
  table["offset"] = column(columns.offset);
  table["size"] = column(columns.sizeBytes);
  table["visit_order"] = column(columns.visitOrder);
  table["block"] = column(columns.block);
  table["thread"] = column(columns.thread);
  table["warp"] = column(columns.warp);
  table["lane"] = column(columns.lane);
  table["step"] = column(columns.step);
  table["instruction"] = column(columns.instruction);
  table["active_mask"] = column(columns.activeMask);
  table["variable"] = column(variable);
  table["variable_names"] = variableNames;
  table["line"] = column(line);
  table["column"] = column(columnNumber);
  return table;
}

py::dict barrierTable(const ir::Program &program, const std::vector<BarrierArrival> &arrivals) {
  size_t count = arrivals.size();
  std::vector<uint64_t> sequence(count), step(count), release(count);
  std::vector<uint32_t> block(count), warp(count), instruction(count), lanes(count),
      visitOrder(count), line(count);
  for (size_t i = 0; i < count; ++i) {
    const BarrierArrival &a = arrivals[i];
    sequence[i] = a.sequence;
    block[i] = a.block;
    warp[i] = a.warp;
    step[i] = a.step;
    instruction[i] = a.barrierInstr;
    lanes[i] = a.lanes;
    visitOrder[i] = a.visitOrder;
    release[i] = a.releaseSequence;
    if (a.barrierInstr < program.instructions.size())
      line[i] = program.instructions[a.barrierInstr].location.line;
  }
  py::dict table;
  table["sequence"] = column(sequence);
  table["block"] = column(block);
  table["warp"] = column(warp);
  table["step"] = column(step);
  table["instruction"] = column(instruction);
  table["lanes"] = column(lanes);
  table["visit_order"] = column(visitOrder);
  table["release_sequence"] = column(release);
  table["line"] = column(line);
  return table;
}

py::dict historyTable(const std::vector<session::SearchStep> &steps) {
  size_t count = steps.size();
  std::vector<uint32_t> generation(count), grid(count * 3), block(count * 3);
  std::vector<double> ratio(count), range(count);
  std::vector<uint8_t> valid(count);
  py::list arguments, outcome;
  for (size_t i = 0; i < count; ++i) {
    const session::SearchStep &s = steps[i];
    generation[i] = s.generation;
    const interp::Dim3 *dims[] = {&s.launch.grid, &s.launch.block};
    std::vector<uint32_t> *targets[] = {&grid, &block};
    for (int k = 0; k < 2; ++k) {
      (*targets[k])[3 * i] = dims[k]->x;
      (*targets[k])[3 * i + 1] = dims[k]->y;
      (*targets[k])[3 * i + 2] = dims[k]->z;
    }
    valid[i] = s.fitness.valid;
    ratio[i] = s.fitness.ratio;
    range[i] = s.fitness.range;
    py::dict args;
    for (const auto &[name, value] : s.launch.args)
      args[text(name)] = text(value);
    arguments.append(args);
    outcome.append(s.outcome);
  }
  py::dict table;
  table["generation"] = column(generation);
  table["grid"] = column(grid).attr("reshape")(-1, 3);
  table["block"] = column(block).attr("reshape")(-1, 3);
  table["valid"] = column(valid).attr("astype")("bool");
  table["F"] = column(ratio);
  table["range"] = column(range);
  table["arguments"] = arguments;
  table["outcome"] = outcome;
  return table;
}

} // namespace simulee::python
