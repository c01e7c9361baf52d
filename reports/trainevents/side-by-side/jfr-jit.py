import json,collections,re,sys,subprocess
from datetime import datetime
f=sys.argv[1]; mstart=float(sys.argv[2]) if len(sys.argv)>2 else 0
d=json.loads(subprocess.run(['jfr','print','--json','--events','jdk.Compilation,jdk.Deoptimization,jdk.JVMInformation',f],capture_output=True,text=True).stdout)
ev=d['recording']['events']
def t(s):
    s=re.sub(r'(Z|[+-]\d\d:\d\d)$','',s); return datetime.fromisoformat(s[:26])
start=t([e for e in ev if e['type']=='jdk.JVMInformation'][0]['values']['jvmStartTime'])
def dur(e):
    m=re.match(r'PT(?:(\d+)M)?([\d.]+)S',e['values']['duration']); return (int(m.group(1) or 0)*60+float(m.group(2))) if m else 0
byw=collections.Counter(); cnt=collections.Counter(); big=[]
for e in ev:
    if e['type']!='jdk.Compilation': continue
    v=e['values']; ts=(t(v['startTime'])-start).total_seconds(); w=int(ts//10)*10; byw[w]+=dur(e); cnt[w]+=1
    if mstart and mstart<=ts<=mstart+60: big.append((dur(e),ts,v['compileLevel'],v['method']['type']['name'].split('/')[-1]+'.'+v['method']['name']))
print('compile s by 10s window:', ' '.join(f'{w}:{byw[w]:.1f}/{cnt[w]}' for w in sorted(byw)))
if mstart:
    print('in measured minute: %d compiles, %.1f s (level4: %.1f s)'%(len(big),sum(b[0] for b in big),sum(b[0] for b in big if b[2]==4)))
    big.sort(reverse=True)
    for b in big[:15]: print('  %.3f %.1f L%d %s'%b)
    dr=collections.Counter()
    for e in ev:
        if e['type']!='jdk.Deoptimization': continue
        ts=(t(e['values']['startTime'])-start).total_seconds()
        if mstart-6<=ts<=mstart+60: dr[(round(ts),e['values']['reason'],e['values']['method']['type']['name'].split('/')[-1]+'.'+e['values']['method']['name'])]+=1
    print('deopts from 6 s before the measured start:', sum(dr.values()))
    for k,v in sorted(dr.items()): print('  ',v,k)
