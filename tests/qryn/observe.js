// Records what a running qryn 3.2.39 actually answers for the fixture's standard data set (qryn-fixture.sh seed),
// including the error cases; prints one JSON document. OBSERVED.md was written from its output.
// Run through `qryn-fixture.sh observe DIR [AUTH_DIR]` (sets the env below).
// env: QRYN_URL, QRYN_DIR, SEED_BASE_FROM_S, SEED_OPT_FROM_S (from DIR/seed.env),
//      AUTH_URL/AUTH_LOGIN/AUTH_PASSWORD (a second instance started with QFLAME_QRYN_LOGIN/PASSWORD; optional)
'use strict';
const http = require('http');
const path = require('path');

const Q = path.resolve(process.env.QRYN_DIR || 'node_modules/qryn') + '/pyroscope/';
const qm = require(Q + 'querier_pb.js');
const tm = require(Q + 'types/v1/types_pb.js');
const gp = require(Q + 'google/v1/profile_pb.js');

const URL0 = process.env.QRYN_URL || 'http://127.0.0.1:3100';
const S = '/querier.v1.QuerierService/';
const CPU = 'process_cpu:cpu:nanoseconds:cpu:nanoseconds';
const SAMPLES = 'process_cpu:samples:count:cpu:nanoseconds';
const now = Date.now();
const H = 3600 * 1000;
const start = now - H; const end = now;

function req (base, method, p, body, { ct = 'application/proto', auth } = {}) {
  return new Promise((resolve, reject) => {
    const u = new URL(base);
    const headers = { 'Content-Type': ct };
    if (auth) headers.Authorization = 'Basic ' + Buffer.from(auth).toString('base64');
    const r = http.request({ host: u.hostname, port: u.port, method, path: p, headers, timeout: 30000 }, (res) => {
      const c = []; res.on('data', d => c.push(d));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(c) }));
    });
    r.on('timeout', () => r.destroy(new Error('timeout ' + p)));
    r.on('error', reject);
    r.end(body);
  });
}
const post = (m, msg, opt) => req(opt && opt.base || URL0, 'POST', S + m, msg === null ? Buffer.alloc(0) : Buffer.from(msg.serializeBinary()), opt);
const raw = (r) => ({ status: r.status, contentType: r.headers['content-type'] || null, bytes: r.body.length, body: r.body.toString('utf8').slice(0, 400) });

function flame (r) {
  if (r.status !== 200) return raw(r);
  const fg = qm.SelectMergeStacktracesResponse.deserializeBinary(r.body).getFlamegraph();
  const names = fg.getNamesList(); const levels = fg.getLevelsList().map(l => l.getValuesList().map(Number));
  const self = new Map();
  levels.forEach(lv => { for (let i = 0; i + 3 < lv.length; i += 4) self.set(names[lv[i + 3]], (self.get(names[lv[i + 3]]) || 0) + lv[i + 2]); });
  return {
    status: r.status, contentType: r.headers['content-type'], total: Number(fg.getTotal()), maxSelf: Number(fg.getMaxSelf()),
    namesCount: names.length, names0_2: names.slice(0, 3), levelsCount: levels.length, level0: levels[0], lastLevelLen: levels.length ? levels[levels.length - 1].length : null,
    level1: levels[1] ? levels[1].slice(0, 16) : null,
    topSelf: [...self.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 5)
  };
}
function mergeProfile (r) {
  if (r.status !== 200) return raw(r);
  const p = gp.Profile.deserializeBinary(r.body); const st = p.getStringTableList();
  const types = p.getSampleTypeList().map(t => st[t.getType()] + ':' + st[t.getUnit()]);
  return {
    status: r.status, contentType: r.headers['content-type'] || null, bytes: r.body.length, sampleTypes: types, samples: p.getSampleList().length,
    sampleTotals: types.map((_, j) => p.getSampleList().reduce((a, s) => a + Number(s.getValueList()[j] || 0), 0)),
    period: Number(p.getPeriod()), periodType: p.getPeriodType() ? st[p.getPeriodType().getType()] + ':' + st[p.getPeriodType().getUnit()] : null,
    timeNanos: String(p.getTimeNanos()), durationNanos: String(p.getDurationNanos())
  };
}
function series (r) {
  if (r.status !== 200) return raw(r);
  return { status: r.status, series: qm.SelectSeriesResponse.deserializeBinary(r.body).getSeriesList().map(s => ({ labels: Object.fromEntries(s.getLabelsList().map(p => [p.getName(), p.getValue()])), points: s.getPointsList().map(p => [Number(p.getTimestamp()), p.getValue()]) })) };
}

const smReq = (type, sel, s = start, e = end) => { const m = new qm.SelectMergeStacktracesRequest(); m.setProfileTypeid(type); m.setLabelSelector(sel); m.setStart(s); m.setEnd(e); return m; };
const mpReq = (type, sel, s = start, e = end) => { const m = new qm.SelectMergeProfileRequest(); m.setProfileTypeid(type); m.setLabelSelector(sel); m.setStart(s); m.setEnd(e); return m; };
const ssReq = (type, sel, step, groupBy, s = start, e = end) => { const m = new qm.SelectSeriesRequest(); m.setProfileTypeid(type); m.setLabelSelector(sel); m.setStart(s); m.setEnd(e); m.setStep(step); m.setGroupByList(groupBy); return m; };
const lnReq = (matchers, s = start, e = end) => { const m = new tm.LabelNamesRequest(); m.setMatchersList(matchers); m.setStart(s); m.setEnd(e); return m; };
const lvReq = (name, matchers, s = start, e = end) => { const m = new tm.LabelValuesRequest(); m.setName(name); m.setMatchersList(matchers); m.setStart(s); m.setEnd(e); return m; };
const ptReq = (s = start, e = end) => { const m = new qm.ProfileTypesRequest(); m.setStart(s); m.setEnd(e); return m; };

(async () => {
  const out = { observedAt: new Date(now).toISOString(), queryWindowMs: [start, end], url: URL0, seed: { baseFromS: Number(process.env.SEED_BASE_FROM_S), optFromS: Number(process.env.SEED_OPT_FROM_S) } };

  let r = await post('ProfileTypes', ptReq());
  out.profileTypes = { status: r.status, contentType: r.headers['content-type'], types: qm.ProfileTypesResponse.deserializeBinary(r.body).getProfileTypesList().map(t => t.toObject()) };
  r = await post('ProfileTypes', ptReq(0, 0));
  out.profileTypesZeroRange = { status: r.status, bytes: r.body.length, count: qm.ProfileTypesResponse.deserializeBinary(r.body).getProfileTypesList().length };

  const names = async (m) => { const x = await post('LabelNames', m); return x.status === 200 ? tm.LabelNamesResponse.deserializeBinary(x.body).getNamesList() : raw(x); };
  const values = async (m) => { const x = await post('LabelValues', m); return x.status === 200 ? tm.LabelValuesResponse.deserializeBinary(x.body).getNamesList() : raw(x); };
  out.labelNames = { all: await names(lnReq([])), svcBase: await names(lnReq(['{service_name="svc-base"}'])) };
  out.labelValues = {
    service_name: await values(lvReq('service_name', [])), version: await values(lvReq('version', [])), env: await values(lvReq('env', [])),
    versionOfSvcOpt: await values(lvReq('version', ['{service_name="svc-opt"}']))
  };
  r = await req(URL0, 'POST', S + 'LabelNames', JSON.stringify({ matchers: [], start, end }), { ct: 'application/json' });
  out.labelNamesJson = raw(r);

  out.selectMergeStacktraces = {};
  for (const svc of ['svc-base', 'svc-opt']) {
    for (const t of [CPU, SAMPLES]) out.selectMergeStacktraces[`${svc} ${t}`] = flame(await post('SelectMergeStacktraces', smReq(t, `{service_name="${svc}"}`)));
  }
  out.selectMergeStacktraces['{} ' + CPU] = flame(await post('SelectMergeStacktraces', smReq(CPU, '{}')));
  out.selectMergeStacktraces['"" ' + CPU] = flame(await post('SelectMergeStacktraces', smReq(CPU, '')));
  out.selectMergeStacktraces['{service_name="svc-base",version="base"} ' + CPU] = flame(await post('SelectMergeStacktraces', smReq(CPU, '{service_name="svc-base",version="base"}')));
  out.selectMergeStacktraces['{service_name="svc-base", version="pgo"} ' + CPU] = flame(await post('SelectMergeStacktraces', smReq(CPU, '{service_name="svc-base", version="pgo"}')));
  out.selectMergeStacktraces['{version="pgo"} ' + CPU] = flame(await post('SelectMergeStacktraces', smReq(CPU, '{version="pgo"}')));
  out.selectMergeStacktraces['{version!="pgo"} ' + CPU] = flame(await post('SelectMergeStacktraces', smReq(CPU, '{version!="pgo"}')));
  out.selectMergeStacktraces['{version=~"as"} (unanchored regex) ' + CPU] = flame(await post('SelectMergeStacktraces', smReq(CPU, '{version=~"as"}')));
  out.selectMergeStacktraces['{version=~"^base$"} ' + CPU] = flame(await post('SelectMergeStacktraces', smReq(CPU, '{version=~"^base$"}')));
  out.selectMergeStacktraces['{version!~"b"} ' + CPU] = flame(await post('SelectMergeStacktraces', smReq(CPU, '{version!~"b"}')));
  for (const t of ['memory:alloc_space:bytes:space:bytes', 'memory:inuse_space:bytes:space:bytes', 'memory:alloc_objects:count:space:bytes', 'memory:inuse_objects:count:space:bytes']) {
    out.selectMergeStacktraces['svc-base ' + t] = flame(await post('SelectMergeStacktraces', smReq(t, '{service_name="svc-base"}')));
  }
  // windows around each seeded profile (timestamps are the load's FROM_S; filter is from_s <= ts <= to_s, in whole seconds)
  const bf = out.seed.baseFromS * 1000; const of = out.seed.optFromS * 1000;
  out.selectMergeStacktraces['{} cpu, window [base_from, base_from+1s)'] = flame(await post('SelectMergeStacktraces', smReq(CPU, '{}', bf, bf + 999)));
  out.selectMergeStacktraces['{} cpu, window [base_from+1s, opt_from-1s]'] = flame(await post('SelectMergeStacktraces', smReq(CPU, '{}', bf + 1000, of - 1000)));
  out.selectMergeStacktraces['{} cpu, window [opt_from, now]'] = flame(await post('SelectMergeStacktraces', smReq(CPU, '{}', of, end)));
  out.selectMergeStacktraces['{} cpu, start=end=opt_from ms'] = flame(await post('SelectMergeStacktraces', smReq(CPU, '{}', of, of)));

  out.selectSeries = {
    'cpu {} group_by service_name step 60': series(await post('SelectSeries', ssReq(CPU, '{}', 60, ['service_name']))),
    'cpu {} no group_by step 60': series(await post('SelectSeries', ssReq(CPU, '{}', 60, []))),
    'samples {service_name="svc-base"} group_by version step 15': series(await post('SelectSeries', ssReq(SAMPLES, '{service_name="svc-base"}', 15, ['version']))),
    'cpu {} group_by service_name step 60, range 3 days ago (ignored)': series(await post('SelectSeries', ssReq(CPU, '{}', 60, ['service_name'], now - 72 * H, now - 71 * H))),
    'cpu {} step 3600': series(await post('SelectSeries', ssReq(CPU, '{}', 3600, []))),
    'unknown type': series(await post('SelectSeries', ssReq('nope:nope:nope:nope:nope', '{}', 60, [])))
  };

  out.selectMergeProfile = {};
  for (const svc of ['svc-base', 'svc-opt']) out.selectMergeProfile[`${svc} ${CPU}`] = mergeProfile(await post('SelectMergeProfile', mpReq(CPU, `{service_name="${svc}"}`)));
  out.selectMergeProfile['{} ' + CPU] = mergeProfile(await post('SelectMergeProfile', mpReq(CPU, '{}')));
  out.selectMergeProfile['svc-base memory:alloc_space:bytes:space:bytes'] = mergeProfile(await post('SelectMergeProfile', mpReq('memory:alloc_space:bytes:space:bytes', '{service_name="svc-base"}')));

  r = await post('GetProfileStats', null);
  out.getProfileStats = tm.GetProfileStatsResponse.deserializeBinary(r.body).toObject();

  const render = async (q) => { const x = await req(URL0, 'GET', q, undefined); if (x.status !== 200) return raw(x); const j = JSON.parse(x.body); return { status: x.status, contentType: x.headers['content-type'], metadata: j.metadata, numTicks: j.flamebearer && j.flamebearer.numTicks, maxSelf: j.flamebearer && j.flamebearer.maxSelf, leftTicks: j.leftTicks, rightTicks: j.rightTicks, namesCount: j.flamebearer && j.flamebearer.names.length, timelineNonZero: j.timeline ? j.timeline.samples.filter(v => v).length : null }; };
  const enc = encodeURIComponent;
  out.render = {
    'svc-base cpu': await render(`/pyroscope/render?query=${enc(CPU + '{service_name="svc-base"}')}&from=${start}&until=${end}`),
    'diff svc-base -> svc-opt cpu': await render(`/pyroscope/render-diff?leftQuery=${enc(CPU + '{service_name="svc-base"}')}&leftFrom=${start}&leftUntil=${end}&rightQuery=${enc(CPU + '{service_name="svc-opt"}')}&rightFrom=${start}&rightUntil=${end}`)
  };

  // ---- error cases
  const E = {};
  E['SelectMergeStacktraces bad selector {service_name=svc-base}'] = raw(await post('SelectMergeStacktraces', smReq(CPU, '{service_name=svc-base}')));
  E['SelectMergeStacktraces selector without braces service_name="svc-base" (accepted)'] = flame(await post('SelectMergeStacktraces', smReq(CPU, 'service_name="svc-base"')));
  E["SelectMergeStacktraces bad selector {service_name='svc-base'}"] = raw(await post('SelectMergeStacktraces', smReq(CPU, "{service_name='svc-base'}")));
  E['SelectSeries bad selector'] = raw(await post('SelectSeries', ssReq(CPU, '{service_name=svc-base}', 60, [])));
  E['LabelValues bad selector'] = raw(await post('LabelValues', lvReq('version', ['{service_name=svc-base}'])));
  E['SelectMergeStacktraces malformed type "cpu"'] = raw(await post('SelectMergeStacktraces', smReq('cpu', '{}')));
  E['SelectMergeStacktraces unknown type nope:nope:nope:nope:nope'] = flame(await post('SelectMergeStacktraces', smReq('nope:nope:nope:nope:nope', '{}')));
  E['SelectMergeStacktraces unknown sample type process_cpu:wall:nanoseconds:cpu:nanoseconds'] = flame(await post('SelectMergeStacktraces', smReq('process_cpu:wall:nanoseconds:cpu:nanoseconds', '{}')));
  E['SelectMergeProfile unknown type'] = mergeProfile(await post('SelectMergeProfile', mpReq('nope:nope:nope:nope:nope', '{}')));
  E['SelectMergeProfile empty type'] = raw(await post('SelectMergeProfile', mpReq('', '{}')));
  E['SelectSeries empty type'] = raw(await post('SelectSeries', ssReq('', '{}', 60, [])));
  E['SelectSeries step 0'] = raw(await post('SelectSeries', ssReq(CPU, '{}', 0, [])));
  E['SelectSeries aggregation AVERAGE'] = await (async () => { const m = ssReq(CPU, '{}', 60, []); m.setAggregation(1); return raw(await post('SelectSeries', m)); })();
  E['SelectMergeStacktraces empty range (1 h, 3 days ago)'] = flame(await post('SelectMergeStacktraces', smReq(CPU, '{}', now - 72 * H, now - 71 * H)));
  E['SelectMergeStacktraces start > end'] = flame(await post('SelectMergeStacktraces', smReq(CPU, '{}', end, start)));
  E['SelectMergeProfile empty range (1 h, 3 days ago)'] = mergeProfile(await post('SelectMergeProfile', mpReq(CPU, '{}', now - 72 * H, now - 71 * H)));
  E['SelectMergeProfile start=end=0'] = mergeProfile(await post('SelectMergeProfile', mpReq(CPU, '{}', 0, 0)));
  E['ProfileTypes empty range (1 h, 3 days ago)'] = await (async () => { const x = await post('ProfileTypes', ptReq(now - 72 * H, now - 71 * H)); return { status: x.status, bytes: x.body.length }; })();
  E['LabelNames empty range (1 h, 3 days ago)'] = await names(lnReq([], now - 72 * H, now - 71 * H));
  E['LabelValues empty name'] = raw(await post('LabelValues', lvReq('', [])));
  E['Diff (not served), proto body'] = raw(await req(URL0, 'POST', S + 'Diff', Buffer.from([0x0a, 0x00])));
  E['GET /ready'] = raw(await req(URL0, 'GET', '/ready', undefined));
  E['GET unknown path'] = raw(await req(URL0, 'GET', '/nope', undefined));
  E['SelectMergeStacktraces JSON body'] = raw(await req(URL0, 'POST', S + 'SelectMergeStacktraces', JSON.stringify({ profile_typeID: CPU, label_selector: '{}', start, end }), { ct: 'application/json' }));
  out.errors = E;

  if (process.env.AUTH_URL) {
    const A = process.env.AUTH_URL; const good = process.env.AUTH_LOGIN + ':' + process.env.AUTH_PASSWORD;
    const withHdr = (x) => Object.assign(raw(x), { wwwAuthenticate: x.headers['www-authenticate'] || null });
    out.auth = {
      url: A, login: process.env.AUTH_LOGIN,
      'ProfileTypes wrong password': withHdr(await post('ProfileTypes', ptReq(), { base: A, auth: process.env.AUTH_LOGIN + ':wrong' })),
      'ProfileTypes no credentials': withHdr(await post('ProfileTypes', ptReq(), { base: A })),
      'ProfileTypes wrong user': withHdr(await post('ProfileTypes', ptReq(), { base: A, auth: 'nobody:' + process.env.AUTH_PASSWORD })),
      'ProfileTypes correct credentials': withHdr(await post('ProfileTypes', ptReq(), { base: A, auth: good })),
      'SelectMergeStacktraces wrong password': withHdr(await post('SelectMergeStacktraces', smReq(CPU, '{}'), { base: A, auth: process.env.AUTH_LOGIN + ':wrong' })),
      'SelectMergeStacktraces correct credentials': flame(await post('SelectMergeStacktraces', smReq(CPU, '{}'), { base: A, auth: good })),
      'GET /ready wrong password': withHdr(await req(A, 'GET', '/ready', undefined, { auth: process.env.AUTH_LOGIN + ':wrong' }))
    };
  }
  console.log(JSON.stringify(out, null, 1));
})().catch(e => { console.error(e); process.exit(1); });
