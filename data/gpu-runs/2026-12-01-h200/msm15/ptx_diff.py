# PTX of gpu_msm_g1.cu (or _g2.cu) at 930a13d (old.ptx) and at this branch (new.ptx), both by nvcc -DFMT_SHARED
# -O3 -DNDEBUG -arch=compute_90 --expt-relaxed-constexpr -std=c++20 -ptx: each entry's body
# (without its parameter list) with the TU hash, branch labels and .loc lines normalised, hashed;
# prints per old entry whether the new PTX has an identical body. Usage: python3 ptx_diff.py
# old.ptx new.ptx > ptx_diff_g1.txt
import hashlib, re, sys
def funcs(path):
    s = re.sub(r'_[0-9a-f]{8}_13_gpu_msm_g\d_cu', '_H_13_gpu_msm_g_cu', open(path).read())
    s = re.sub(r'_cu_[0-9a-f]{8}_\d+', '_cu_H', s)  # G2's TU: a second per-compile hash
    out = {}
    for m in re.finditer(r'^(?:\.visible |\.weak )?\.entry (\S+)\(', s, re.M):
        start = m.start(); end = s.index('\n}\n', start) + 3
        name = m.group(1)
        body = s[start:end].replace(name, 'FN')
        body = body[body.index('\n{\n'):]
        body = re.sub(r'\.loc[^\n]*\n', '', body)
        body = re.sub(r'\$L__BB\d+_', '$L__BB_', body)
        out[name] = body
    return out
old, new = funcs(sys.argv[1]), funcs(sys.argv[2])
newh = {hashlib.md5(b.encode()).hexdigest() for b in new.values()}
same = diff = 0
for k, b in old.items():
    if hashlib.md5(b.encode()).hexdigest() in newh: same += 1; print('same     ', k)
    else: diff += 1; print('DIFFERENT', k)
print('old entries', len(old), 'identical PTX body in the new', same, 'different', diff,
      'new entries', len(new))
