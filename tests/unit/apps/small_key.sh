# Sourced by the prove tests: PRESTAGE (the test's $1) as an absolute path in $prestage, a
# temporary working folder removed on exit, fail(), and a small synthetic circuit made there by
# `prestage synth` (dense, domain 2^5, 2 public signals: c.r1cs, w.wtns) with its key from
# `prestage setup` (k.zkey, vk.json).
prestage=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fail() { echo "FAIL: $*" >&2; exit 1; }
"$prestage" synth --profile dense --log-domain 5 --public 2 --seed 1 --r1cs c.r1cs --wtns w.wtns
"$prestage" setup --r1cs c.r1cs --zkey k.zkey --vk vk.json --seed 2 2>/dev/null
