# Cuts a flamebearer JSON answer down to its first `depth` levels (the last kept level's nodes become leaves:
# self = total), keeps only the names used, and shortens the timeline: a small but valid answer.
import json, sys
src, dst, depth = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = json.load(open(src))
fb = d['flamebearer']
double = d['metadata'].get('format') == 'double'
step = 7 if double else 4
levels = fb['levels'][:depth]
last = levels[-1]
for i in range(0, len(last), step):
    if double:
        last[i+2] = last[i+1]; last[i+5] = last[i+4]
    else:
        last[i+2] = last[i+1]
used = {}
for lv in levels:
    for i in range(step - 1, len(lv), step):
        lv[i] = used.setdefault(lv[i], len(used))
names = [None] * len(used)
for old, new in used.items():
    names[new] = fb['names'][old]
fb['levels'] = levels
fb['names'] = names
if 'maxSelf' in fb:
    fb['maxSelf'] = max(max(lv[i+2] for i in range(0, len(lv), step)) for lv in levels if lv)
if 'timeline' in d and d['timeline']:
    d['timeline']['samples'] = d['timeline']['samples'][:8]
open(dst, 'w').write(json.dumps(d, separators=(',', ':')))
