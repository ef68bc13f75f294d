#!/usr/bin/env python3
"""Checks that the statistics additions are the only change of the snapshot outputs: removes them (JSON: the keys
`statistics` and `intervals`; text: the ` [low, high]` after values and the intervals heading) and compares the
SHA-256 with a record made before them. Usage: stats_snapshot_strip.py OUT_DIR OLD_RECORD"""
import hashlib, json, os, re, sys
out, record = sys.argv[1], sys.argv[2]
want = {}
for line in open(record):
    h, name = line.split(None, 1)
    want[name.strip()] = h
bad = 0
for name in sorted(os.listdir(out)):
    data = open(os.path.join(out, name), 'rb').read()
    if name.endswith('.json') or name.endswith('.both'):
        lines = data.split(b'\n')
        new = []
        for l in lines:
            try:
                obj = json.loads(l)
            except Exception:
                new.append(l); continue
            if isinstance(obj, dict) and 'statistics' in obj:
                # Remove the two keys textually (they are last): keep byte-identity of the rest.
                s = l.decode()
                i = s.find(',"statistics":')
                assert s.endswith('}'), name
                s = s[:i] + '}'
                l = s.encode()
            elif isinstance(obj, dict) and any(isinstance(v, dict) and 'statistics' in v for v in obj.values()):
                s = l.decode()
                s = re.sub(r',"statistics":\{[^{}]*\},"intervals":\{(\{[^{}]*\}|[^{}])*\}', '', s)
                l = s.encode()
            new.append(l)
        data = b'\n'.join(new)
    if not name.endswith('.json') and not name.endswith('.err'):
        s = data.decode('utf-8', 'surrogateescape')
        s = re.sub(r' \[(-?[0-9.]+(e-?\d+)?, -?[0-9.]+(e-?\d+)?|no interval)\]', '', s)
        s = re.sub(r'^[0-9.]+ % bootstrap intervals \(.*\n', '', s, flags=re.M)
        data = s.encode('utf-8', 'surrogateescape')
    h = hashlib.sha256(data).hexdigest()
    if want.get(name) != h:
        bad += 1
        print('differs:', name)
print(f'{len(os.listdir(out))} outputs, {bad} differ after stripping')
