#!/usr/bin/env python3
# Compares the device code of two builds of libperksolve_cuda.so kernel by kernel, from the PTX that the library's
# fatbinaries embed (zstd-compressed; Debian: python3-zstandard). Line directives, the translation units' hashes in
# internal names, basic-block label numbers and virtual register numbers (renamed in order of first use) are
# normalised away. Usage: compare_ptx.py OLD.so NEW.so
import collections, difflib, re, struct, subprocess, sys

import zstandard


def fatbins(data):
    magic, out = struct.pack('<I', 0xBA55ED50), []
    i = data.find(magic)
    while i >= 0:
        header, size = struct.unpack_from('<H', data, i + 6)[0], struct.unpack_from('<Q', data, i + 8)[0]
        out.append(data[i + header:i + header + size])
        i = data.find(magic, i + header + size)
    return out


def entries(fatbin):  # (kind, payload); kind 1 = PTX, 2 = ELF
    i, out = 0, []
    while i + 64 <= len(fatbin):
        kind, _, header = struct.unpack_from('<HHI', fatbin, i)
        size = struct.unpack_from('<Q', fatbin, i + 8)[0]
        out.append((kind, fatbin[i + header:i + header + size]))
        i += header + size
    return out


TU_HASH = re.compile(r'\d*_(GLOBAL__N_|INTERNAL)_[0-9a-f]{8}_\d+_([A-Za-z0-9_]+?)_cu_[0-9a-f]{8}(_\d+)?')


def functions(path):
    out = {}
    for fb in fatbins(open(path, 'rb').read()):
        for kind, payload in entries(fb):
            if kind != 1:
                continue
            if payload[:4] == b'\x28\xb5\x2f\xfd':
                payload = zstandard.ZstdDecompressor().decompress(payload, max_output_size=1 << 31)
            ptx = payload.decode('latin1')
            starts = [m.start() for m in re.finditer(r'(?m)^(?:\.visible |\.weak )?\.(?:entry|func) ', ptx)]
            for s, e in zip(starts, starts[1:] + [len(ptx)]):
                body = ptx[s:e]
                m = re.search(r'\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z0-9_$]+)', body)
                if m:
                    out[TU_HASH.sub(r'\1_\2', m.group(1))] = canonical(TU_HASH.sub(r'\1_\2', body))
    return out


def canonical(body):
    body = re.sub(r'(?m)^\s*\.loc\b.*\n?', '', body)
    body = re.sub(r'\$L__BB\d+_', '$L__BB_', body)
    names = {}
    return re.sub(r'%(r|rd|f|fd|p|rs|h|hh|b)(\d+)\b',
                  lambda m: names.setdefault(m.group(0), '%v' + m.group(1) + str(len(names))), body)


def opcodes(body):
    return collections.Counter(l.split()[0] for l in body.splitlines() if l.strip() and not l.strip().startswith(('//', '.')))


old, new = functions(sys.argv[1]), functions(sys.argv[2])
demangle = lambda n: subprocess.run(['c++filt'], input=n, capture_output=True, text=True).stdout.strip()
print(f'functions: {len(old)} old, {len(new)} new')
for n in sorted(set(old) - set(new)):
    print('only old:', demangle(n))
for n in sorted(set(new) - set(old)):
    print('only new:', demangle(n))
changed = [n for n in old if n in new and old[n] != new[n]]
print(f'identical: {sum(1 for n in old if n in new and old[n] == new[n])}, changed: {len(changed)}')
for n in sorted(changed, key=lambda n: demangle(n)):
    a, b = old[n].splitlines(), new[n].splitlines()
    lines = sum(1 for l in difflib.unified_diff(a, b, lineterm='', n=0) if l[:1] in '+-' and not l.startswith(('+++', '---')))
    same_ops = opcodes(old[n]) == opcodes(new[n])
    print(f'changed: {lines} diff lines, {len(a)} -> {len(b)} lines, same instructions: {same_ops}: {demangle(n)[:160]}')
