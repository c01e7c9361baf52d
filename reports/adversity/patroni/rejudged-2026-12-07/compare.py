import json,sys
# Verdicts of each Patroni result: stored (patroni-in/DIR/result.json), judged again by the rule before (old/DIR) and
# as fixed (new/DIR), each by `report merge` of the copy with its rebuilt timeline. python3 compare.py DIR...
from collections import Counter
def load(p):
    return json.load(open(p))['disruptions']
for d in sys.argv[1:]:
    st=load('patroni-in/%s/result.json'%d); o=load('old/%s/result.json'%d); n=load('new/%s/result.json'%d)
    c=lambda ds: dict(Counter(x.get('recovery') for x in ds))
    print('==',d,'stored',c(st),'| old rule on rebuilt',c(o),'| new rule on rebuilt',c(n))
    for a,b,e in zip(st,o,n):
        f=lambda x: (x.get('recovery') or '-')+(' %.1fs'%x['recoverySeconds'] if x.get('recoverySeconds') is not None else '')
        mark = '  MOVED' if b.get('recovery')!=e.get('recovery') else ''
        mism = '  (rebuilt!=stored)' if a.get('recovery')!=b.get('recovery') else ''
        print('  %-18s stored=%-16s old=%-16s new=%-16s%s%s' % (a['name'], f(a), f(b), f(e), mark, mism))
        if mark or (e.get('recovery')!='recovered'):
            print('      new note:', e.get('recoveryNote'))
