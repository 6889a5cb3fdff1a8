// System: model/output_files (issue 16), the one module every prestage output goes through.
// Expectation: an output appears only whole and only by a rename; an existing output is replaced
// only with force, a directory only when prestage wrote it and never /, home, the working
// directory or a parent of it; a refusal is an InputError and leaves every file of the user's
// and nothing else. Tolerance: none (file sets and contents compared exactly).
#include "model/output_files.hpp"

#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>
#include "model/errors.hpp"
#include "model/run_output.hpp"

namespace fs = std::filesystem;
namespace out = prestage::output;
namespace model = prestage::model;
using prestage::InputError;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// Every path under root (relative), with each regular file's content.
std::set<std::string> snapshot(const fs::path& root) {
  std::set<std::string> s;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    std::string rel = fs::relative(e.path(), root).string();
    s.insert(e.is_regular_file() ? rel + "=" + read(e.path()) : rel + "/");
  }
  return s;
}

// A temporary directory holding a user's files: notes.txt, data/keep.csv, own/ (a folder of the
// user's with a manifest.json that some other tool wrote).
struct UserDir {
  fs::path root;
  UserDir() {
    root = fs::temp_directory_path() / ("prestage-output-files-" + std::to_string(getpid()));
    fs::remove_all(root);
    fs::create_directories(root / "data");
    fs::create_directories(root / "own");
    write(root / "notes.txt", "mine\n");
    write(root / "data" / "keep.csv", "a,b\n1,2\n");
    write(root / "own" / "manifest.json", "{\"tool\": \"someone else\"}\n");
  }
  ~UserDir() {
    std::error_code ec;
    fs::current_path(fs::temp_directory_path(), ec);
    fs::remove_all(root, ec);
  }
};

// A directory output with one file (and the manifest marker, as write_run writes it).
void write_dir(const fs::path& target, bool force, const std::string& body) {
  out::OutputDir d(target.string(), force);
  write(d.path() / "a.txt", body);
  write(d.path() / "manifest.json",
        "{\"prestage_output\": 1, \"tool\": \"prestage test\", \"files\": [\"a.txt\", "
        "\"manifest.json\"]}\n");
  d.commit();
}

bool refused(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError&) {
    return true;
  }
  return false;
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(output_files, UserDir)

BOOST_AUTO_TEST_CASE(new_dir_is_written_whole_and_replaced_only_with_force) {
  const auto before = snapshot(root);
  write_dir(root / "run", false, "one");
  BOOST_TEST(read(root / "run" / "a.txt") == "one");
  BOOST_TEST(refused([&] { write_dir(root / "run", false, "two"); }));
  BOOST_TEST(read(root / "run" / "a.txt") == "one");
  write_dir(root / "run", true, "two");
  BOOST_TEST(read(root / "run" / "a.txt") == "two");
  fs::remove_all(root / "run");
  BOOST_TEST(snapshot(root) == before);  // nothing else written, no temporaries left
}

BOOST_AUTO_TEST_CASE(force_refuses_a_directory_prestage_did_not_write) {
  const auto before = snapshot(root);
  BOOST_TEST(refused([&] { write_dir(root / "data", true, "x"); }));
  BOOST_TEST(refused([&] { write_dir(root / "own", true, "x"); }));         // foreign manifest
  BOOST_TEST(refused([&] { write_dir(root / "notes.txt", true, "x"); }));   // a file
  BOOST_TEST(refused([&] { write_dir(root / "data/", true, "x"); }));       // trailing slash
  BOOST_TEST(refused([&] { write_dir(root / "own" / "..", true, "x"); }));  // the root itself
  BOOST_TEST(snapshot(root) == before);
}

BOOST_AUTO_TEST_CASE(force_refuses_a_prestage_dir_holding_a_file_of_the_users) {
  write_dir(root / "run", false, "one");
  write(root / "run" / "my_notes.txt", "mine");
  std::string why;
  BOOST_TEST(!out::is_prestage_output_dir(root / "run", &why));
  BOOST_TEST(why.find("my_notes.txt") != std::string::npos, why);
  BOOST_TEST(refused([&] { write_dir(root / "run", true, "two"); }));
  BOOST_TEST(read(root / "run" / "my_notes.txt") == "mine");
  BOOST_TEST(read(root / "run" / "a.txt") == "one");
}

BOOST_AUTO_TEST_CASE(older_manifests_are_recognised_by_their_tool_and_file_list) {
  fs::create_directories(root / "old");
  write(root / "old" / "manifest.json",
        "{\"tool\": \"prestage simulate\", \"files\": [\"manifest.json\"]}\n");
  BOOST_TEST(out::is_prestage_output_dir(root / "old"));
  write(root / "old" / "manifest.json", "not json");
  BOOST_TEST(!out::is_prestage_output_dir(root / "old"));
}

BOOST_AUTO_TEST_CASE(a_manifest_without_a_file_list_never_allows_force) {
  // Without "files" nothing tells prestage's files from the user's: the whole folder is kept.
  fs::create_directories(root / "nolist");
  write(root / "nolist" / "manifest.json", "{\"prestage_output\": 1, \"tool\": \"prestage x\"}\n");
  write(root / "nolist" / "thesis.tex", "mine");
  std::string why;
  BOOST_TEST(!out::is_prestage_output_dir(root / "nolist", &why));
  BOOST_TEST(why.find("\"files\"") != std::string::npos, why);
  BOOST_TEST(refused([&] { write_dir(root / "nolist", true, "x"); }));
  BOOST_TEST(read(root / "nolist" / "thesis.tex") == "mine");
}

BOOST_AUTO_TEST_CASE(a_users_file_deep_in_a_subfolder_blocks_force) {
  // A prestage output with nested files (validate --gpu's measured/ runs), listed by path.
  {
    out::OutputDir d((root / "val").string(), false);
    fs::create_directories(d.path() / "measured" / "r1");
    write(d.path() / "measured" / "r1" / "summary.json", "{}");
    write(d.path() / "report.md", "r");
    auto files = out::list_files(d.path());
    BOOST_TEST((files == std::vector<std::string>{"measured/r1/summary.json", "report.md"}));
    write(d.path() / "manifest.json",
          "{\"prestage_output\": 1, \"files\": [\"measured/r1/summary.json\", \"report.md\", "
          "\"manifest.json\"]}");
    d.commit();
  }
  BOOST_TEST(out::is_prestage_output_dir(root / "val"));
  write(root / "val" / "measured" / "r1" / "plot.png", "mine");
  std::string why;
  BOOST_TEST(!out::is_prestage_output_dir(root / "val", &why));
  BOOST_TEST(why.find("measured/r1/plot.png") != std::string::npos, why);
  BOOST_TEST(refused([&] { write_dir(root / "val", true, "x"); }));
  BOOST_TEST(read(root / "val" / "measured" / "r1" / "plot.png") == "mine");
  // An older manifest that listed the folder itself: what is inside cannot be vouched for.
  fs::remove(root / "val" / "measured" / "r1" / "plot.png");
  write(root / "val" / "manifest.json",
        "{\"prestage_output\": 1, \"files\": [\"measured\", \"report.md\", \"manifest.json\"]}");
  BOOST_TEST(!out::is_prestage_output_dir(root / "val", &why));
  BOOST_TEST(why.find("measured") != std::string::npos, why);
}

BOOST_AUTO_TEST_CASE(working_directory_its_parents_root_and_home_are_protected) {
  fs::create_directories(root / "cwd" / "sub");
  // Make cwd itself look like a prestage output: still refused.
  write(root / "cwd" / "manifest.json", "{\"prestage_output\": 1}\n");
  fs::current_path(root / "cwd" / "sub");
  BOOST_TEST(out::is_protected_path(out::normalise(".")));
  BOOST_TEST(out::is_protected_path(out::normalise("..")));
  BOOST_TEST(out::is_protected_path(out::normalise("../")));
  BOOST_TEST(out::is_protected_path(out::normalise("/")));
  BOOST_TEST(!out::is_protected_path(out::normalise("other")));
  if (const char* h = std::getenv("HOME"); h && *h)
    BOOST_TEST(out::is_protected_path(out::normalise(h)));
  BOOST_TEST(refused([&] { write_dir("..", true, "x"); }));
  BOOST_TEST(refused([&] { write_dir(".", true, "x"); }));
  BOOST_TEST(fs::exists(root / "cwd" / "sub"));
  BOOST_TEST(fs::exists(root / "cwd" / "manifest.json"));
}

BOOST_AUTO_TEST_CASE(a_file_is_replaced_only_with_force_and_never_a_directory) {
  const auto before = snapshot(root);
  auto body = [](const std::string& t) { return [t](std::ostream& o) { o << t; }; };
  BOOST_TEST(
      refused([&] { out::write_file_atomic((root / "notes.txt").string(), false, body("x")); }));
  BOOST_TEST(refused([&] { out::write_file_atomic((root / "data").string(), true, body("x")); }));
  BOOST_TEST(refused([&] { out::write_file_atomic((root / "data/").string(), true, body("x")); }));
  BOOST_TEST(refused([&] { out::write_file_atomic((root / "x.csv/").string(), true, body("x")); }));
  BOOST_TEST(
      refused([&] { out::write_file_atomic((root / "nodir/x.csv").string(), true, body("x")); }));
  BOOST_TEST(snapshot(root) == before);
  out::write_file_atomic((root / "new.csv").string(), false, body("1\n"));
  BOOST_TEST(read(root / "new.csv") == "1\n");
  out::write_file_atomic((root / "new.csv").string(), true, body("2\n"));
  BOOST_TEST(read(root / "new.csv") == "2\n");
  fs::remove(root / "new.csv");
  BOOST_TEST(snapshot(root) == before);
}

BOOST_AUTO_TEST_CASE(a_failure_while_writing_leaves_nothing) {
  const auto before = snapshot(root);
  BOOST_CHECK_THROW(out::write_file_atomic((root / "f.csv").string(), false,
                                           [](std::ostream& o) {
                                             o << "half";
                                             throw std::runtime_error("disk full");
                                           }),
                    std::runtime_error);
  BOOST_CHECK_THROW(
      {
        out::OutputDir d((root / "run").string(), false);
        write(d.path() / "a.txt", "half");
        throw std::runtime_error("simulated failure");
      },
      std::runtime_error);
  BOOST_TEST(snapshot(root) == before);
}

BOOST_AUTO_TEST_CASE(temporaries_are_unique_and_beside_the_target) {
  out::OutputDir a((root / "run").string(), false), b((root / "run").string(), false);
  BOOST_TEST(a.path() != b.path());
  BOOST_TEST(a.path().parent_path() == fs::weakly_canonical(root));
  BOOST_TEST(a.path().filename().string().rfind(".run.prestage-tmp-", 0) == 0u);
  // A user's "run.tmp" (what the old code removed) is left alone.
  write(root / "run.tmp", "mine");
  a.commit();
  BOOST_TEST(read(root / "run.tmp") == "mine");
  BOOST_TEST(refused([&] { b.commit(); }));  // appeared meanwhile, no force
}

BOOST_AUTO_TEST_CASE(manifest_digests_are_sha256_and_old_records_still_check) {
  // System: model::file_sha256 on FIPS 180-2's test message "abc" and on an empty file;
  // same_file_as_recorded on a new entry (sha256), a record of before 2026-12-06 (hash_fnv1a64
  // only) and an entry with neither. Expectation: the standard digests; true for the file the
  // entry names, false after one byte changes; nullopt without a digest. Tolerance: exact.
  const fs::path dir = fs::temp_directory_path() / ("prestage-digest-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string abc = (dir / "abc").string(), empty = (dir / "empty").string();
  std::ofstream(abc, std::ios::binary) << "abc";
  std::ofstream(empty, std::ios::binary).flush();
  BOOST_TEST(model::file_sha256(abc) ==
             "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  BOOST_TEST(model::file_sha256(empty) ==
             "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  BOOST_TEST(model::file_sha256((dir / "missing").string()).empty());
  const nlohmann::json now = {{"file", abc}, {"sha256", model::file_sha256(abc)}};
  const nlohmann::json old = {{"file", abc}, {"hash_fnv1a64", model::file_fnv1a64(abc)}};
  BOOST_TEST(model::file_fnv1a64(abc) == "e71fa2190541574b");  // FNV-1a 64 of "abc"
  BOOST_TEST((model::same_file_as_recorded(now, abc) == true));
  BOOST_TEST((model::same_file_as_recorded(old, abc) == true));
  BOOST_TEST(!model::same_file_as_recorded(nlohmann::json{{"file", abc}}, abc).has_value());
  std::ofstream(abc, std::ios::binary) << "abd";
  BOOST_TEST((model::same_file_as_recorded(now, abc) == false));
  BOOST_TEST((model::same_file_as_recorded(old, abc) == false));
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
