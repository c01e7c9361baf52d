import os, time, sys
out = open(sys.argv[1], 'a')
tick = os.sysconf('SC_CLK_TCK')
def procs():
    for pid in os.listdir('/proc'):
        if not pid.isdigit(): continue
        try:
            cmd = open(f'/proc/{pid}/cmdline','rb').read().replace(b'\0', b' ').decode(errors='replace')
        except Exception: continue
        if '/var/tmp/gauntlet/lab/' not in cmd and 'gauntlet/lab' not in cmd: continue
        kind = 'patroni' if 'patroni' in cmd and 'postgres:' not in cmd and 'bin/postgres' not in cmd else \
               'etcd' if 'etcd' in cmd else 'haproxy' if 'haproxy' in cmd else 'postgres'
        yield pid, kind
def pss(pid):
    try:
        for l in open(f'/proc/{pid}/smaps_rollup'):
            if l.startswith('Pss:'): return int(l.split()[1])
    except Exception: return 0
    return 0
def cpu(pid):
    try:
        f = open(f'/proc/{pid}/stat').read().rsplit(')',1)[1].split()
        return (int(f[11]) + int(f[12])) / tick
    except Exception: return 0
seen = {}
while True:
    byk = {}
    # postgres children have cmdline 'postgres: ...' without the lab path: include descendants of lab postmasters
    pids = dict(procs())
    allp = {}
    for p in os.listdir('/proc'):
        if p.isdigit():
            try: allp[p] = open(f'/proc/{p}/stat').read().rsplit(')',1)[1].split()[1]
            except Exception: pass
    changed = True
    while changed:
        changed = False
        for p, ppid in allp.items():
            if p not in pids and ppid in pids:
                pids[p] = 'postgres' if pids[ppid] in ('postgres','patroni') else pids[ppid]; changed = True
    for p, k in pids.items():
        b = byk.setdefault(k, [0, 0.0])
        b[0] += pss(p); c = cpu(p); seen[p] = (k, c)
    cputot = {}
    for p, (k, c) in seen.items(): cputot[k] = cputot.get(k, 0) + c
    out.write(time.strftime('%H:%M:%S') + ' ' + ' '.join(f'{k}:pss={v[0]//1024}MB,cpu={cputot.get(k,0):.0f}s' for k, v in sorted(byk.items())) + f' total_pss={sum(v[0] for v in byk.values())//1024}MB\n')
    out.flush()
    time.sleep(60)
