// Protobuf smoke client for a running qryn 3.2.39: ProfileTypes, LabelNames, LabelValues, Series,
// SelectMergeStacktraces, SelectSeries, SelectMergeProfile, GetProfileStats. Prints the decoded answers and a last
// line `SMOKE_RESULT {json}`; exits 1 if a call fails or an answer is empty.
// Adapted from the team's research harness (shared/qryn/harness/query_smoke.js); parametrised by env:
//   QRYN_URL (http://127.0.0.1:3100), QRYN_LOGIN/QRYN_PASSWORD (basic auth when set), QRYN_DIR (installed qryn
//   package; its generated *_pb.js are used), SMOKE_SERVICE (svc-base), SMOKE_LABEL (version),
//   SMOKE_PROFILE_TYPE (process_cpu:cpu:nanoseconds:cpu:nanoseconds), SMOKE_FROM_MS/SMOKE_UNTIL_MS (now-1h/now),
//   SMOKE_STEP (60, seconds), SMOKE_PPROF_OUT (write the SelectMergeProfile body there).
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');

const Q = path.resolve(process.env.QRYN_DIR || 'node_modules/qryn') + '/pyroscope/';
const qm = require(Q + 'querier_pb.js');
const tm = require(Q + 'types/v1/types_pb.js');
const gp = require(Q + 'google/v1/profile_pb.js');

const BASE = new URL(process.env.QRYN_URL || 'http://127.0.0.1:3100');
const SERVICE = process.env.SMOKE_SERVICE || 'svc-base';
const LABEL = process.env.SMOKE_LABEL || 'version';
const TYPE = process.env.SMOKE_PROFILE_TYPE || 'process_cpu:cpu:nanoseconds:cpu:nanoseconds';
const now = Date.now();
const start = parseInt(process.env.SMOKE_FROM_MS || String(now - 3600 * 1000), 10);
const end = parseInt(process.env.SMOKE_UNTIL_MS || String(now), 10);
const step = parseFloat(process.env.SMOKE_STEP || '60');
const SEL = `{service_name=${JSON.stringify(SERVICE)}}`;
const S = '/querier.v1.QuerierService/';

const post = (p, body) => new Promise((resolve, reject) => {
  const headers = { 'Content-Type': 'application/proto', 'Connect-Protocol-Version': '1' };
  if (process.env.QRYN_LOGIN) {
    headers.Authorization = 'Basic ' + Buffer.from(process.env.QRYN_LOGIN + ':' + (process.env.QRYN_PASSWORD || '')).toString('base64');
  }
  const req = http.request({ host: BASE.hostname, port: BASE.port, method: 'POST', path: p, headers, timeout: 30000 }, (res) => {
    const c = []; res.on('data', d => c.push(d));
    res.on('end', () => resolve({ status: res.statusCode, ct: res.headers['content-type'], body: Buffer.concat(c) }));
  });
  req.on('timeout', () => req.destroy(new Error('request timed out: ' + p)));
  req.on('error', reject);
  req.end(body);
});

// FlameGraph levels: quadruples [x_offset(delta), total, self, name_index] (qryn.md §5.1)
function flameSummary (fg) {
  const names = fg.getNamesList();
  const levels = fg.getLevelsList().map(l => l.getValuesList().map(Number));
  const self = new Map();
  let level1 = 0;
  levels.forEach((lv, d) => {
    for (let i = 0; i + 3 < lv.length; i += 4) {
      if (d === 1) level1 += lv[i + 1];
      self.set(names[lv[i + 3]], (self.get(names[lv[i + 3]]) || 0) + lv[i + 2]);
    }
  });
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
  return { total: Number(fg.getTotal()), maxSelf: Number(fg.getMaxSelf()), names: names.length, levels: levels.length, level1Sum: level1, topSelf: top };
}

const failures = [];
const check = (cond, what) => { if (!cond) { failures.push(what); console.log('  FAIL: ' + what); } };
const result = { url: BASE.origin, service: SERVICE, label: LABEL, profileType: TYPE, start, end };

(async () => {
  const call = async (name, method, msg, Resp) => {
    const r = await post(S + method, Buffer.from(msg.serializeBinary()));
    console.log(`== ${name}: HTTP ${r.status} content-type=${r.ct} bytes=${r.body.length}`);
    if (r.status !== 200) { check(false, `${name}: HTTP ${r.status} ${r.body.toString().slice(0, 300)}`); return null; }
    try { return Resp.deserializeBinary(r.body); } catch (e) { check(false, `${name}: decode error ${e.message}`); return null; }
  };

  const ptReq = new qm.ProfileTypesRequest(); ptReq.setStart(start); ptReq.setEnd(end);
  const pt = await call('ProfileTypes', 'ProfileTypes', ptReq, qm.ProfileTypesResponse);
  if (pt) {
    result.profileTypes = pt.getProfileTypesList().map(t => t.getId()).sort();
    console.log('  ' + JSON.stringify(result.profileTypes));
    check(result.profileTypes.includes(TYPE), `ProfileTypes lacks ${TYPE}`);
  }

  const lnReq = new tm.LabelNamesRequest(); lnReq.setStart(start); lnReq.setEnd(end); lnReq.setMatchersList([SEL]);
  const ln = await call('LabelNames', 'LabelNames', lnReq, tm.LabelNamesResponse);
  if (ln) {
    result.labelNames = ln.getNamesList();
    console.log('  ' + JSON.stringify(result.labelNames));
    check(result.labelNames.includes(LABEL) && result.labelNames.includes('service_name'), `LabelNames lacks ${LABEL} or service_name`);
  }

  const lvReq = new tm.LabelValuesRequest(); lvReq.setName(LABEL); lvReq.setStart(start); lvReq.setEnd(end); lvReq.setMatchersList([SEL]);
  const lv = await call(`LabelValues(${LABEL})`, 'LabelValues', lvReq, tm.LabelValuesResponse);
  if (lv) {
    result.labelValues = lv.getNamesList();
    console.log('  ' + JSON.stringify(result.labelValues));
    check(result.labelValues.length > 0, `LabelValues(${LABEL}) is empty`);
  }

  const seReq = new qm.SeriesRequest(); seReq.setStart(start); seReq.setEnd(end);
  seReq.setMatchersList([`{service_name=${JSON.stringify(SERVICE)}, __profile_type__=${JSON.stringify(TYPE)}}`]);
  const se = await call('Series', 'Series', seReq, qm.SeriesResponse);
  if (se) {
    result.series = se.getLabelsSetList().map(ls => Object.fromEntries(ls.getLabelsList().map(p => [p.getName(), p.getValue()])));
    console.log('  ' + JSON.stringify(result.series));
    check(result.series.length > 0, 'Series is empty');
  }

  const smReq = new qm.SelectMergeStacktracesRequest(); smReq.setProfileTypeid(TYPE); smReq.setLabelSelector(SEL); smReq.setStart(start); smReq.setEnd(end);
  const sm = await call('SelectMergeStacktraces', 'SelectMergeStacktraces', smReq, qm.SelectMergeStacktracesResponse);
  if (sm) {
    result.flamegraph = flameSummary(sm.getFlamegraph());
    console.log('  ' + JSON.stringify(result.flamegraph));
    check(result.flamegraph.total > 0, 'SelectMergeStacktraces total is 0');
    check(result.flamegraph.total === result.flamegraph.level1Sum, 'flamegraph total != sum of level 1');
  }

  const ssReq = new qm.SelectSeriesRequest(); ssReq.setProfileTypeid(TYPE); ssReq.setLabelSelector(SEL); ssReq.setStart(start); ssReq.setEnd(end); ssReq.setStep(step); ssReq.setGroupByList([LABEL]);
  const ss = await call(`SelectSeries(step=${step}, group_by=${LABEL})`, 'SelectSeries', ssReq, qm.SelectSeriesResponse);
  if (ss) {
    result.selectSeries = ss.getSeriesList().map(s => ({
      labels: Object.fromEntries(s.getLabelsList().map(p => [p.getName(), p.getValue()])),
      points: s.getPointsList().map(p => [Number(p.getTimestamp()), p.getValue()])
    }));
    console.log('  ' + JSON.stringify(result.selectSeries));
    check(result.selectSeries.length > 0 && result.selectSeries[0].points.length > 0, 'SelectSeries has no points');
  }

  const mpReq = new qm.SelectMergeProfileRequest(); mpReq.setProfileTypeid(TYPE); mpReq.setLabelSelector(SEL); mpReq.setStart(start); mpReq.setEnd(end);
  const r = await post(S + 'SelectMergeProfile', Buffer.from(mpReq.serializeBinary()));
  console.log(`== SelectMergeProfile: HTTP ${r.status} content-type=${r.ct} bytes=${r.body.length}`);
  if (r.status !== 200) check(false, `SelectMergeProfile: HTTP ${r.status}`);
  else {
    if (process.env.SMOKE_PPROF_OUT) fs.writeFileSync(process.env.SMOKE_PPROF_OUT, r.body);
    const prof = gp.Profile.deserializeBinary(r.body); const st = prof.getStringTableList();
    const types = prof.getSampleTypeList().map(t => st[t.getType()] + ':' + st[t.getUnit()]);
    const totals = types.map((_, j) => prof.getSampleList().reduce((a, s) => a + Number(s.getValueList()[j] || 0), 0));
    result.mergeProfile = { bytes: r.body.length, sampleTypes: types, sampleTotals: totals, samples: prof.getSampleList().length };
    console.log('  ' + JSON.stringify(result.mergeProfile) + '  (3.2.39 inflates these values, qryn.md §4.6)');
    check(prof.getSampleList().length > 0, 'SelectMergeProfile returned no samples');
  }

  const gs = await post(S + 'GetProfileStats', Buffer.alloc(0));
  console.log(`== GetProfileStats: HTTP ${gs.status}`);
  if (gs.status === 200) {
    const o = tm.GetProfileStatsResponse.deserializeBinary(gs.body);
    result.profileStats = { dataIngested: o.getDataIngested(), oldest: Number(o.getOldestProfileTime()), newest: Number(o.getNewestProfileTime()) };
    console.log('  ' + JSON.stringify(result.profileStats));
  } else check(false, `GetProfileStats: HTTP ${gs.status}`);

  result.ok = failures.length === 0;
  result.failures = failures;
  console.log('SMOKE_RESULT ' + JSON.stringify(result));
  console.log(result.ok ? 'smoke: OK' : `smoke: FAILED (${failures.length}): ${failures.join('; ')}`);
  process.exit(result.ok ? 0 : 1);
})().catch(e => { console.error('smoke: ERROR ' + (e && e.stack || e)); process.exit(1); });
