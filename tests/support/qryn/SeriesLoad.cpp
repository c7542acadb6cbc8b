#include "qryn/SeriesLoad.h"

#include "ProfileFactory.h"

#include <QFile>
#include <QProcess>

#include <string>

namespace qflame::test {

LoadedSeries loadSeries(const QrynFixtureEnv &env, const QString &fixtureScript, const QString &tmpDir,
                        const QString &service, qint64 firstS, int count, int stepS)
{
    LoadedSeries out;
    out.service = service;
    QByteArray list;
    for (int i = 0; i < count; ++i) {
        SeriesStep s{firstS + qint64(i) * stepS, 40 + (i * 37) % 23, 15 + (i * 11) % 7, 5 + i % 4};
        FoldedProfile spec;
        spec.sampleTypes = {{"samples", "count"}, {"cpu", "nanoseconds"}};
        spec.periodType = {"cpu", "nanoseconds"};
        spec.period = SeriesStep::kPeriod;
        spec.durationNanos = int64_t(stepS) * 1'000'000'000;
        auto line = [](const char *stack, int n) {
            return std::string(stack) + " " + std::to_string(n) + " " + std::to_string(n * SeriesStep::kPeriod) + "\n";
        };
        spec.folded = line("main;work;hot", s.hot) + line("main;work;cold", s.cold) + line("main;idle", s.idle);
        const QString file = tmpDir + QStringLiteral("/%1-%2.pb").arg(service).arg(i);
        QFile f(file);
        const std::string bytes = pprofBytes(spec);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size())) {
            out.error = QStringLiteral("cannot write %1").arg(file);
            return out;
        }
        list += QStringLiteral("%1\t%2\t%3\t%4\tenv=series\n")
                    .arg(file, service)
                    .arg(s.fromS)
                    .arg(s.fromS + stepS)
                    .toUtf8();
        out.steps.push_back(s);
    }
    const QString listFile = tmpDir + QStringLiteral("/%1.tsv").arg(service);
    QFile l(listFile);
    if (!l.open(QIODevice::WriteOnly) || l.write(list) != list.size()) {
        out.error = QStringLiteral("cannot write %1").arg(listFile);
        return out;
    }
    l.close();
    QProcess p;
    p.start(fixtureScript, {QStringLiteral("load-batch"), env.dir, listFile});
    p.closeWriteChannel();
    if (!p.waitForFinished(300'000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        p.kill();
        p.waitForFinished();
        out.error = QStringLiteral("load-batch failed: %1").arg(QString::fromUtf8(p.readAllStandardError()));
    }
    return out;
}

}   // namespace qflame::test
