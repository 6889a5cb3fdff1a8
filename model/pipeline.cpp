#include "model/pipeline.hpp"

#include <stdexcept>

#include "model/yaml_input.hpp"

namespace prestage::model {
using yaml::In;

const std::vector<std::string>& size_names() {
  static const std::vector<std::string> names = {"n", "elem", "lot_of_memory", "partitions"};
  return names;
}

int Pipeline::buffer_index(const std::string& n) const {
  for (std::size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].name == n) return static_cast<int>(i);
  return -1;
}
int Pipeline::input_index(const std::string& n) const {
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].name == n) return static_cast<int>(i);
  return -1;
}

namespace {

SizeExpr size_expr(const In& q) {
  try {
    return SizeExpr(q.str(), size_names());
  } catch (const std::invalid_argument& e) {
    q.fail(e.what());
  }
}

int buffer_ref(const Pipeline& p, const In& q) {
  int i = p.buffer_index(q.str());
  if (i < 0) q.fail("no buffer named '" + q.str() + "' in buffers");
  return i;
}
int input_ref(const Pipeline& p, const In& q) {
  int i = p.input_index(q.str());
  if (i < 0) q.fail("no input named '" + q.str() + "' in inputs");
  return i;
}

}  // namespace

Pipeline parse_pipeline(const In& root) {
  Pipeline p;
  p.file = root.file();
  root.expect_map(
      {"schema", "name", "description", "inputs", "buffers", "resident", "stage_groups", "steps"});
  if (root.at("schema").str() != "prestage-pipeline/1")
    root.at("schema").fail("unsupported schema (expected prestage-pipeline/1)");
  p.name = root.at("name").str();

  In inputs = root.at("inputs");
  for (const auto& k : inputs.keys()) {
    In q = inputs.at(k);
    q.expect_map({"bytes", "note"});
    p.inputs.push_back({k, size_expr(q.at("bytes"))});
  }
  In bufs = root.at("buffers");
  for (const auto& k : bufs.keys()) {
    In q = bufs.at(k);
    q.expect_map({"bytes", "allocator", "note"});
    BufferSpec b{k, size_expr(q.at("bytes")), Allocator::sync};
    b.allocator =
        q.at("allocator").choice({"sync", "pool"}) == "sync" ? Allocator::sync : Allocator::pool;
    p.buffers.push_back(std::move(b));
  }
  if (root.has("resident")) {
    In res = root.at("resident");
    for (const auto& k : res.keys()) {
      In q = res.at(k);
      q.expect_map({"bytes", "note"});
      p.resident.push_back({k, size_expr(q.at("bytes"))});
    }
  }
  if (root.has("stage_groups")) {
    In gs = root.at("stage_groups");
    for (std::size_t i = 0; i < gs.size(); ++i) {
      In g = gs.item(i);
      g.expect_map({"name", "buffer", "uploads"});
      StageGroup sg;
      sg.name = g.at("name").str();
      sg.buffer = buffer_ref(p, g.at("buffer"));
      In ups = g.at("uploads");
      for (std::size_t j = 0; j < ups.size(); ++j) sg.uploads.push_back(input_ref(p, ups.item(j)));
      for (const auto& other : p.groups)
        if (other.buffer == sg.buffer) g.at("buffer").fail("buffer already in another stage group");
      p.groups.push_back(std::move(sg));
    }
  }

  In steps = root.at("steps");
  std::vector<bool> live(p.buffers.size(), false);
  bool locked = false;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    In s = steps.item(i);
    s.expect_map({"op", "name", "buffer", "input", "kernel", "size", "seconds", "count", "detach",
                  "bytes", "scope"});
    Step st;
    st.line = s.line();
    std::string op = s.at("op").choice({"lock", "unlock", "alloc", "free", "upload", "download",
                                        "kernel", "cpu", "pin", "unpin", "sync"});
    auto need = [&](const char* key) { return s.at(key); };
    if (op == "pin" || op == "unpin") {
      st.op = op == "pin" ? StepOp::pin : StepOp::unpin;
      if (op == "pin") {
        if (p.has_pin_step) s.at("op").fail("only one pin step");
        p.has_pin_step = true;
      } else if (!p.has_pin_step) {
        s.at("op").fail("unpin without an earlier pin step");
      }
    } else if (op == "lock") {
      if (locked) s.at("op").fail("lock while already holding the GPU lock");
      st.op = StepOp::lock, locked = true;
    } else if (op == "unlock") {
      if (!locked) s.at("op").fail("unlock without lock");
      st.op = StepOp::unlock, locked = false;
    } else if (op == "alloc" || op == "free") {
      st.op = op == "alloc" ? StepOp::alloc : StepOp::free;
      st.buffer = buffer_ref(p, need("buffer"));
      if (op == "alloc" && live[st.buffer]) need("buffer").fail("buffer allocated twice");
      if (op == "free" && !live[st.buffer]) need("buffer").fail("free of a buffer not allocated");
      live[st.buffer] = op == "alloc";
    } else if (op == "upload") {
      st.op = StepOp::upload;
      st.input = input_ref(p, need("input"));
      st.buffer = buffer_ref(p, need("buffer"));
      if (!live[st.buffer]) need("buffer").fail("upload into a buffer not allocated");
    } else if (op == "sync") {
      st.op = StepOp::sync;
      const std::string scope =
          s.has("scope") ? s.at("scope").choice({"stream", "event", "device"}) : "stream";
      st.scope = scope == "event"    ? SyncScope::event
                 : scope == "device" ? SyncScope::device
                                     : SyncScope::stream;
    } else if (op == "download") {
      st.op = StepOp::download;
      st.size = size_expr(need("bytes"));
    } else {
      st.op = op == "kernel" ? StepOp::kernel : StepOp::cpu;
      if (s.has("kernel") == s.has("seconds")) s.fail("give exactly one of 'kernel' or 'seconds'");
      if (s.has("kernel")) st.kernel = s.at("kernel").str();
      if (s.has("seconds")) st.seconds = s.at("seconds").non_negative();
      st.size = size_expr(s.has("size") ? s.at("size") : In(YAML::Node("n"), p.file, "", st.line));
      if (s.has("count")) {
        st.count = static_cast<int>(s.at("count").integer());
        if (st.count < 1) s.at("count").fail("expected >= 1");
      }
      if (s.has("detach")) {
        if (st.op != StepOp::cpu) s.at("detach").fail("only cpu steps may detach");
        st.detach = s.at("detach").boolean();
      }
    }
    if (s.has("name")) {
      st.name = s.at("name").str();
    } else {
      st.name = op;
      if (st.op == StepOp::sync)
        st.name += st.scope == SyncScope::event    ? "_event"
                   : st.scope == SyncScope::device ? "_device"
                                                   : "_stream";
      if (st.buffer >= 0 && st.op != StepOp::upload) st.name += "_" + p.buffers[st.buffer].name;
      if (st.input >= 0) st.name += "_" + p.inputs[st.input].name;
      if (!st.kernel.empty()) st.name = st.kernel;
    }
    if (s.has("scope") && st.op != StepOp::sync) s.at("scope").fail("only sync steps have a scope");
    if (st.op == StepOp::cpu && locked && st.detach)
      s.fail("a detached cpu step cannot hold the lock");
    p.steps.push_back(std::move(st));
  }
  if (locked) steps.fail("the steps end while holding the GPU lock");
  for (std::size_t b = 0; b < live.size(); ++b)
    if (live[b]) steps.fail("buffer '" + p.buffers[b].name + "' is never freed");
  // Every stage group's uploads must be uploads of the steps into that buffer.
  for (const auto& g : p.groups)
    for (int in : g.uploads) {
      bool found = false;
      for (const auto& st : p.steps)
        found = found || (st.op == StepOp::upload && st.input == in && st.buffer == g.buffer);
      if (!found)
        root.at("stage_groups")
            .fail("group '" + g.name + "' uploads '" + p.inputs[in].name +
                  "' but no step uploads it into '" + p.buffers[g.buffer].name + "'");
    }
  return p;
}

Pipeline load_pipeline(const std::string& path) {
  return parse_pipeline(In(yaml::load_file(path), path, ""));
}

}  // namespace prestage::model
