#include "model/output_files.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "model/errors.hpp"

namespace prestage::output {
namespace fs = std::filesystem;

namespace {

std::string errno_text(int e) {
  return std::strerror(e);
}

fs::path strip_trailing(fs::path p) {
  p = p.lexically_normal();
  while (!p.has_filename() && p != p.root_path() && !p.empty()) p = p.parent_path();
  return p;
}

mode_t current_umask() {
  mode_t m = umask(0);
  umask(m);
  return m;
}

// ".<name>.<tag>-XXXXXX" beside target, as a mutable C string for mkstemp/mkdtemp.
std::vector<char> temp_template(const fs::path& target, const std::string& tag) {
  std::string t =
      (target.parent_path() / ("." + target.filename().string() + "." + tag + "-XXXXXX")).string();
  std::vector<char> v(t.begin(), t.end());
  v.push_back('\0');
  return v;
}

fs::path make_temp_dir(const fs::path& target, const std::string& tag, const std::string& given,
                       const std::string& key) {
  auto name = temp_template(target, tag);
  if (!mkdtemp(name.data()))
    throw InputError(given, 0, key,
                     "cannot create a temporary directory beside it in " +
                         target.parent_path().string() + " (" + errno_text(errno) + ")");
  fs::path p(name.data());
  ::chmod(p.c_str(), 0777 & ~current_umask());  // mkdtemp makes 0700
  return p;
}

bool exists_nofollow(const fs::path& p) {
  std::error_code ec;
  return fs::symlink_status(p, ec).type() != fs::file_type::not_found && !ec;
}

// renameat2 with flags; returns 0 or errno. ENOSYS/EINVAL: the file system cannot do it.
int rename2(const fs::path& from, const fs::path& to, unsigned flags) {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), flags) == 0) return 0;
  return errno;
}

bool unsupported(int e) {
  return e == EINVAL || e == ENOSYS || e == ENOTSUP;
}

}  // namespace

fs::path normalise(const std::string& path, const std::string& key) {
  if (path.empty()) throw InputError("", 0, key, "empty output path");
  std::error_code ec;
  fs::path abs = fs::absolute(fs::path(path), ec);
  if (ec) throw InputError(path, 0, key, "cannot resolve the path (" + ec.message() + ")");
  fs::path c = fs::weakly_canonical(abs, ec);
  if (ec) c = abs;
  return strip_trailing(c);
}

bool is_protected_path(const fs::path& p) {
  const fs::path n = strip_trailing(p);
  if (n == n.root_path()) return true;
  if (const char* home = std::getenv("HOME"); home && *home) {
    std::error_code ec;
    fs::path h = strip_trailing(fs::weakly_canonical(fs::path(home), ec));
    if (!ec && h == n) return true;
  }
  std::error_code ec;
  fs::path cwd = strip_trailing(fs::weakly_canonical(fs::current_path(ec), ec));
  if (ec) return true;  // cannot tell: protect
  // n is the working directory or one of its parents when its components prefix cwd's.
  auto ni = n.begin(), ci = cwd.begin();
  for (; ni != n.end() && ci != cwd.end(); ++ni, ++ci)
    if (*ni != *ci) return false;
  return ni == n.end();
}

bool is_prestage_output_dir(const fs::path& dir, std::string* why) {
  auto no = [&](const std::string& w) {
    if (why) *why = w;
    return false;
  };
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(dir, ec))) return no("it is not a directory");
  const fs::path mf = dir / "manifest.json";
  if (!fs::is_regular_file(fs::symlink_status(mf, ec))) return no("it has no manifest.json");
  std::ifstream in(mf, std::ios::binary);
  nlohmann::json m = nlohmann::json::parse(in, nullptr, false);
  if (m.is_discarded() || !m.is_object()) return no("its manifest.json is not a JSON object");
  bool marked = false;
  if (auto it = m.find(kMarkerKey); it != m.end() && it->is_number_integer())
    marked = it->get<long long>() == 1;
  if (auto it = m.find("tool"); !marked && it != m.end() && it->is_string())
    marked = it->get<std::string>().rfind("prestage", 0) == 0;
  if (!marked)
    return no(std::string("its manifest.json has neither \"") + kMarkerKey +
              "\": 1 nor a \"tool\" starting with \"prestage\"");
  auto it = m.find("files");
  if (it == m.end() || !it->is_array())
    return no(
        "its manifest.json has no \"files\" list, so what else it holds cannot be told "
        "from what prestage wrote");
  std::set<std::string> listed, parents;
  for (const auto& f : *it) {
    if (!f.is_string()) continue;
    const fs::path rel = fs::path(f.get<std::string>()).lexically_normal();
    listed.insert(rel.generic_string());
    for (fs::path p = rel.parent_path(); !p.empty(); p = p.parent_path())
      parents.insert(p.generic_string());
  }
  // Every entry of the whole tree must be a listed file or a directory above one: a file the
  // user added anywhere inside (a note in a run folder, a plot in measured/) blocks --force.
  for (fs::recursive_directory_iterator d(dir, fs::directory_options::none, ec), end;
       !ec && d != end; d.increment(ec)) {
    const std::string rel = fs::relative(d->path(), dir).generic_string();
    const bool is_dir = d->is_directory(ec) && !d->is_symlink(ec);
    if (listed.count(rel)) {
      // An older manifest (validate --gpu before 2026-12-06) listed a whole folder: what is in
      // it cannot be told from what prestage wrote.
      if (is_dir)
        return no("its manifest.json lists the folder '" + rel + "' but not the files in it");
      continue;
    }
    if (is_dir && parents.count(rel)) continue;
    return no("it holds '" + rel + "', which its manifest.json does not list");
  }
  if (ec) return no("it cannot be listed (" + ec.message() + ")");
  return true;
}

std::vector<std::string> list_files(const fs::path& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator d(dir, ec), end; !ec && d != end; d.increment(ec))
    if (!d->is_directory(ec) || d->is_symlink(ec))
      files.push_back(fs::relative(d->path(), dir).generic_string());
  if (ec) throw InputError(dir.string(), 0, "", "cannot list the output (" + ec.message() + ")");
  std::sort(files.begin(), files.end());
  return files;
}

void check_replaceable_dir(const std::string& path, bool force, const std::string& key) {
  const fs::path t = normalise(path, key);
  if (!exists_nofollow(t)) return;
  if (!force)
    throw InputError("", 0, key,
                     "output directory exists: " + path +
                         " (use --force to replace a directory prestage wrote, or choose a new "
                         "one)");
  if (is_protected_path(t))
    throw InputError(path, 0, key,
                     "refusing to replace " + t.string() +
                         ": it is /, the home directory, the working directory or one of its "
                         "parents; --force only replaces a directory prestage wrote. Choose a new "
                         "output directory");
  std::string why;
  if (!is_prestage_output_dir(t, &why))
    throw InputError(path, 0, key,
                     "refusing to replace " + t.string() + " (even with --force): " + why +
                         ", so prestage did not write it. Choose a new output directory or "
                         "remove it yourself");
}

void check_replaceable_file(const std::string& path, bool force, const std::string& key) {
  if (!path.empty() && path.back() == '/')
    throw InputError(path, 0, key, "ends with '/' (a directory); give the output file's name");
  const fs::path t = normalise(path, key);
  std::error_code ec;
  const fs::file_status st = fs::status(t, ec);
  if (fs::is_directory(st))
    throw InputError(
        path, 0, key,
        t.string() + " is a directory; an output file never replaces one (give a file name)");
  if (!exists_nofollow(t)) return;
  if (!force)
    throw InputError(path, 0, key,
                     "output file exists: " + t.string() + " (use --force to replace it)");
  if (!fs::is_regular_file(st))
    throw InputError(path, 0, key,
                     "refusing to replace " + t.string() + ": it is not a regular file");
}

OutputDir::OutputDir(const std::string& target, bool force, std::string key)
    : StagedOutput(target, std::move(key), force) {
  check_replaceable_dir(given_, force_, key_);
  target_ = normalise(given_, key_);
  std::error_code ec;
  fs::create_directories(target_.parent_path(), ec);
  if (ec || !fs::is_directory(target_.parent_path()))
    throw InputError(given_, 0, key_,
                     "cannot create the parent directory " + target_.parent_path().string() +
                         (ec ? " (" + ec.message() + ")" : std::string()));
  tmp_ = make_temp_dir(target_, "prestage-tmp", given_, key_);
}

OutputDir::~OutputDir() {
  if (!committed_ && !tmp_.empty()) {
    std::error_code ec;
    fs::remove_all(tmp_, ec);
  }
}

void OutputDir::commit() {
  check_replaceable_dir(given_, force_, key_);  // again: something may have appeared meanwhile
  if (!exists_nofollow(target_)) {
    int e = rename2(tmp_, target_, RENAME_NOREPLACE);
    if (unsupported(e)) e = ::rename(tmp_.c_str(), target_.c_str()) == 0 ? 0 : errno;
    if (e == EEXIST || e == ENOTEMPTY)
      throw InputError("", 0, key_, "output directory appeared meanwhile: " + given_);
    if (e)
      throw InputError(given_, 0, key_, "cannot rename the output into place: " + errno_text(e));
    committed_ = true;
    return;
  }
  // Replace a directory prestage wrote (checked above): swap, then remove the old one.
  int e = rename2(tmp_, target_, RENAME_EXCHANGE);
  if (e == 0) {
    committed_ = true;  // tmp_ now holds the old output
    std::error_code ec;
    fs::remove_all(tmp_, ec);
    return;
  }
  if (!unsupported(e))
    throw InputError(given_, 0, key_, "cannot swap the output into place: " + errno_text(e));
  const fs::path aside = make_temp_dir(target_, "prestage-old", given_, key_);
  if (::rename(target_.c_str(), aside.c_str()) != 0) {
    e = errno;
    std::error_code ec;
    fs::remove(aside, ec);
    throw InputError(given_, 0, key_, "cannot move the old output aside: " + errno_text(e));
  }
  if (::rename(tmp_.c_str(), target_.c_str()) != 0) {
    e = errno;
    ::rename(aside.c_str(), target_.c_str());  // put the old one back
    throw InputError(given_, 0, key_, "cannot rename the output into place: " + errno_text(e));
  }
  committed_ = true;
  std::error_code ec;
  fs::remove_all(aside, ec);
}

fs::path temp_file_beside(const fs::path& target, const std::string& tag) {
  auto name = temp_template(target, tag);
  int fd = mkstemp(name.data());
  if (fd < 0)
    throw InputError(target.string(), 0, "",
                     "cannot create a temporary file in " + target.parent_path().string() + " (" +
                         errno_text(errno) + ")");
  ::fchmod(fd, 0666 & ~current_umask());  // mkstemp makes 0600
  ::close(fd);
  return fs::path(name.data());
}

OutputFile::OutputFile(const std::string& target, bool force, std::string key)
    : StagedOutput(target, std::move(key), force) {
  check_replaceable_file(given_, force_, key_);
  target_ = normalise(given_, key_);
  std::error_code ec;
  if (!fs::is_directory(target_.parent_path(), ec))
    throw InputError(given_, 0, key_,
                     "output directory does not exist: " + target_.parent_path().string());
  tmp_ = temp_file_beside(target_, "prestage-tmp");
}

OutputFile::~OutputFile() {
  if (!committed_ && !tmp_.empty()) ::unlink(tmp_.c_str());
}

void OutputFile::commit() {
  check_replaceable_file(given_, force_, key_);
  int e = 0;
  if (!force_) {
    e = rename2(tmp_, target_, RENAME_NOREPLACE);
    if (unsupported(e)) {  // link() refuses an existing target too
      e = ::link(tmp_.c_str(), target_.c_str()) == 0 ? 0 : errno;
      if (e == 0) ::unlink(tmp_.c_str());
    }
    if (e == EEXIST)
      throw InputError(given_, 0, key_, "output file appeared meanwhile (use --force to replace)");
  } else {
    e = ::rename(tmp_.c_str(), target_.c_str()) == 0 ? 0 : errno;  // a directory: EISDIR
  }
  if (e) throw InputError(given_, 0, key_, "cannot rename the output into place: " + errno_text(e));
  committed_ = true;
}

void write_file_atomic(const std::string& path, bool force,
                       const std::function<void(std::ostream&)>& body, const std::string& key) {
  OutputFile f(path, force, key);
  {
    std::ofstream out(f.path(), std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(path, 0, key, "cannot write " + f.path().string());
    body(out);
    out.flush();
    if (!out) throw InputError(path, 0, key, "write failed: " + f.path().string());
  }
  f.commit();
}

}  // namespace prestage::output
