#!/usr/bin/env bash
# SASS of gpu_msm_g1.cu before (930a13d, nvcc -cubin sm_90) and after (this branch's object):
# every function's instructions (addresses and encodings stripped) hashed; prints, per old
# function, whether an identical body exists in the new object (names may differ: msm15 added a
# template argument), and the totals. Usage: sass_diff.sh OLD.cubin NEW.o OUTFILE
# (OLD.cubin: nvcc -DFMT_SHARED -I<930a13d tree> -O3 -DNDEBUG -gencode arch=compute_90,code=sm_90
#  --expt-relaxed-constexpr -std=c++20 -cubin -x cu gpu/msm/gpu_msm_g1.cu; NEW.o: build/gpu's
#  gpu/CMakeFiles/prestage_cuda.dir/msm/gpu_msm_g1.cu.o.)
set -uo pipefail
cob=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
split() {  # $1 input, $2 out dir: one file a function (body normalised)
  mkdir -p "$2"
  "$cob" -sass "$1" | awk -v d="$2" '
    /Function :/ { n++; f = d "/" n; print $0 > (d "/names"); next }
    n > 0 && /\/\*[0-9a-f]+\*\// { l = $0; gsub(/\/\*[^*]*\*\//, "", l); gsub(/[ \t]+/, " ", l); print l > f }'
}
t=$(mktemp -d)
split "$1" "$t/old"; split "$2" "$t/new"
for f in "$t"/new/[0-9]*; do md5sum < "$f" | cut -c1-32; done | sort -u > "$t/new.h"
same=0 diff=0
{
  i=0
  while read -r name; do
    i=$((i + 1)); h=$(md5sum < "$t/old/$i" | cut -c1-32)
    if grep -q "$h" "$t/new.h"; then same=$((same + 1)); s=same; else diff=$((diff + 1)); s=DIFFERENT; fi
    echo "$s $(wc -l < "$t/old/$i") ${name#*Function : }"
  done < "$t/old/names"
  echo "old functions: $((same + diff)), identical body in the new object: $same, different: $diff"
  echo "new functions: $(wc -l < "$t/new/names")"
} > "$3"
tail -2 "$3"
