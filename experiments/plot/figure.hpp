#pragma once
// One PNG figure drawn by gnuplot (pngcairo) through gnuplot-iostream.
// Contract: the PNG appears at `png` only when gnuplot finished without an error and wrote a
// file with the PNG signature; until finish() it is drawn into a unique temporary file beside it
// (model/output_files.hpp), which is removed on any failure (no half-written figure is left
// behind). An existing PNG is replaced only with `force`, a directory never. Gnuplot errors become
// std::runtime_error (exit 3), a bad or existing output path an InputError naming -o (exit 2).
#include <memory>
#include <string>

namespace gnuplotio {
class Gnuplot;
}
namespace prestage::output {
class OutputFile;
}

namespace prestage::plot {

class Figure {
 public:
  Figure(const std::string& png, int width_px, int height_px, bool force = false);
  ~Figure();
  Figure(const Figure&) = delete;
  Figure& operator=(const Figure&) = delete;

  gnuplotio::Gnuplot& gp() { return *gp_; }
  void finish();

 private:
  std::string png_, tmp_png_, err_file_;
  std::unique_ptr<output::OutputFile> out_;
  std::unique_ptr<gnuplotio::Gnuplot> gp_;
  bool done_ = false;
};

// A gnuplot string literal of s (double-quoted, escaped).
std::string q(const std::string& s);
// True when the file starts with the 8-byte PNG signature and is larger than it.
bool is_png(const std::string& path);
// Human scale for a byte count used in labels: "512 MiB", "16 GiB".
std::string bytes_label(double bytes);

}  // namespace prestage::plot
