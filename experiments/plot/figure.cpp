#include "experiments/plot/figure.hpp"

#include <fmt/format.h>

#include <gnuplot-iostream.h>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/errors.hpp"
#include "model/output_files.hpp"

#ifndef PRESTAGE_GNUPLOT_EXECUTABLE
#define PRESTAGE_GNUPLOT_EXECUTABLE "gnuplot"
#endif

namespace prestage::plot {
namespace fs = std::filesystem;

namespace {
std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}
}  // namespace

std::string q(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') {
      out += "\\n";  // gnuplot's escape: a line break inside the label
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

bool is_png(const std::string& path) {
  static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::ifstream in(path, std::ios::binary);
  unsigned char head[8] = {};
  if (!in.read(reinterpret_cast<char*>(head), 8)) return false;
  for (int i = 0; i < 8; ++i)
    if (head[i] != sig[i]) return false;
  return in.peek() != std::char_traits<char>::eof();
}

std::string bytes_label(double b) {
  const double gib = 1024.0 * 1024 * 1024, mib = 1024.0 * 1024;
  if (b >= gib) return fmt::format("{:g} GiB", b / gib);
  if (b >= mib) return fmt::format("{:g} MiB", b / mib);
  return fmt::format("{:g} B", b);
}

Figure::Figure(const std::string& png, int width_px, int height_px, bool force) : png_(png) {
  if (png.empty()) throw InputError("", 0, "-o", "empty output path");
  // Refuses an existing PNG without force and a directory always; the PNG and gnuplot's stderr
  // go to unique temporary files beside the target.
  out_ = std::make_unique<output::OutputFile>(png, force, "-o");
  tmp_png_ = out_->path().string();
  err_file_ = output::temp_file_beside(out_->target(), "prestage-err").string();
  try {
    gp_ = std::make_unique<Gnuplot>(std::string(PRESTAGE_GNUPLOT_EXECUTABLE) + " 2>" +
                                    shell_quote(err_file_));
  } catch (...) {
    std::error_code ec;
    fs::remove(err_file_, ec);
    throw;
  }
  // pngcairo, plain text (no enhanced mode: names like copy_stream must not turn subscript).
  gp() << fmt::format(
      "set terminal pngcairo size {},{} noenhanced font 'DejaVu Sans,13' linewidth 1.5\n"
      "set output {}\n"
      "set encoding utf8\n",
      width_px, height_px, q(tmp_png_));
}

Figure::~Figure() {
  if (!done_) {
    gp_.reset();  // waits for gnuplot
    std::error_code ec;
    fs::remove(err_file_, ec);
    out_.reset();  // removes the temporary PNG
  }
}

void Figure::finish() {
  gp() << "unset output\nexit\n";
  gp().flush();
  gp_.reset();  // pclose: waits until gnuplot has written the PNG
  done_ = true;
  std::string errors;
  {
    std::ifstream in(err_file_);
    std::string line;
    // gnuplot prints both warnings and errors on stderr; only the errors fail the figure.
    while (std::getline(in, line))
      if (!line.empty() && line.find("warning") == std::string::npos) errors += line + "\n";
  }
  std::error_code ec;
  fs::remove(err_file_, ec);
  if (!errors.empty() || !is_png(tmp_png_)) {
    out_.reset();  // removes the temporary PNG
    throw std::runtime_error("gnuplot failed to draw " + png_ +
                             (errors.empty() ? std::string(" (no PNG written)") : ":\n" + errors));
  }
  out_->commit();
}

}  // namespace prestage::plot
