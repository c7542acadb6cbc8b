// The explorer's session (QrynExplorer.h): the start from the command line or the start page, the query remembered
// per connection, Retry of what failed, and Save of the merged pprof.
#include "explorer/QrynExplorer.h"

#include "explorer/ConnectionDialog.h"
#include "explorer/ConnectionStore.h"
#include "explorer/LabelGroupView.h"
#include "explorer/LabelSelectorEdit.h"
#include "explorer/ProfileListView.h"
#include "explorer/RangeList.h"
#include "explorer/TimelineView.h"
#include "explorer/TimelineWidget.h"

#include "compare/DiffView.h"
#include "document/DocumentPane.h"
#include "flame/FlameGraphWidget.h"
#include "qryn/ExportCheck.h"
#include "qryn/PprofExport.h"
#include "qryn/TimeSpec.h"
#include "qryn/TimelineSteps.h"

#include <QComboBox>
#include <QDateTime>
#include <QDateTimeEdit>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace qflame::qryn {

void QrynExplorer::start(const Start &st)
{
    QPointer<QrynExplorer> self(this);
    auto go = [self, st](const ConnectionSettings &settings, const QString &keychainError) {
        if (!self)
            return;
        self->setConnection(settings, st.name);
        if (st.profileType.isEmpty()) {
            if (self->restoreQuery())
                self->loadWhenConnected();
        } else {
            self->setProfileType(st.profileType);
            self->setSelector(st.selector);
            if (st.range)
                self->setCustomRange(*st.range);
            else
                self->setPreset(Hour1);
            self->loadWhenConnected();
        }
        if (!keychainError.isEmpty())   // the connection goes on without the secret; the line says why
            self->showMessage(keychainError, false);
    };
    if (st.secretsFromStore)
        m_store->withSecrets(st.name, st.settings, go);
    else
        go(st.settings, QString());
}

bool QrynExplorer::restoreQuery()
{
    const std::optional<SavedQuery> q = m_connectionName.isEmpty() ? std::nullopt : m_store->lastQuery(m_connectionName);
    if (!q)
        return false;
    setProfileType(q->profileType);
    setSelector(q->selector);
    setComparisonSelector(q->comparisonSelector);
    setGroupBy(q->groupBy);
    if (q->preset == Custom)
        setCustomRange({q->fromMs, q->toMs});
    else
        setPreset(Preset(std::clamp(q->preset, int(Minutes15), int(Days7))));
    return true;
}

void QrynExplorer::rememberQuery()
{
    if (m_connectionName.isEmpty())
        return;
    SavedQuery q{profileType(), selector(), m_comparisonSelector->text().trimmed(), m_groupBy->currentData().toString(),
                 m_presets->currentIndex(), 0, 0};
    if (q.preset == Custom) {
        const TimeRange r = range();
        q.fromMs = r.startMs;
        q.toMs = r.endMs;
    }
    m_store->rememberQuery(m_connectionName, q);
}

void QrynExplorer::loadWhenConnected()
{
    if (!m_serverTypes.isEmpty())
        load();
    else
        m_loadWhenConnected = true;
}

std::function<void()> QrynExplorer::retryAction(const QString &what)
{
    if (what == u"types" || what == u"labels")
        return [this] {
            if (m_client)
                setConnection(m_client->settings(), m_connectionName);
        };
    if (what == u"flamegraph" && !m_flameQuery.profileTypeId.isEmpty())
        return [this] { loadFlamegraph(m_flameQuery); };
    if (what == u"timeline" && !m_loadQuery.profileTypeId.isEmpty())
        return [this] { loadTimeline(m_loadQuery); };
    if (what == u"compare")
        return m_lastCompare;
    if (what == u"save" && !m_lastSavePath.isEmpty())
        return [this] { saveMerged(m_lastSavePath); };
    if (what == u"profiles" && !m_listQuery.profileTypeId.isEmpty())
        return [this] { listProfilesOf(m_listQuery); };
    if (what == u"profile")
        return m_lastEntry;
    return {};
}

void QrynExplorer::retry()
{
    QStringList kinds = m_failed.values();
    kinds.sort();
    // A new connection asks for types and labels again, and nothing else can work before it answers.
    if (kinds.contains(QStringLiteral("types")) || kinds.contains(QStringLiteral("labels")))
        kinds = {QStringLiteral("types")};
    for (const QString &what : std::as_const(kinds))
        if (const std::function<void()> action = retryAction(what))
            action();
}

void QrynExplorer::saveMerged(const QString &chosenPath)
{
    QString why;
    if (!ready(&why))
        return finished(QStringLiteral("save"), false, why);
    QString path = chosenPath;
    if (path.isEmpty())
        path = QFileDialog::getSaveFileName(this, tr("Save Merged Profile"), QStringLiteral("default.pgo"),
                                            tr("gzip pprof (*.pgo *.pb.gz);;All files (*)"));
    if (path.isEmpty())
        return;
    m_lastSavePath = path;
    const ProfileQuery q = query();
    ProfileType type;
    ProfileType::parse(q.profileTypeId, &type);
    // The flamegraph's total is the true one (qryn 3.2.39 inflates SelectMergeProfile): fetch both, then compare.
    m_saveProfileJob.drop();   // the second request of an earlier Save
    m_saveFlameJob.follow(m_client->selectMergeStacktraces(q), [this, q, type, path](Result<MergedFlamegraph> fg) {
        if (!fg.ok())
            return finished(QStringLiteral("save"), false, fg.error.message);
        m_saveProfileJob.follow(m_client->selectMergeProfile(q), [this, q, type, path, total = fg.value.graph.total](Result<MergedProfile> r) {
            if (!r.ok())
                return finished(QStringLiteral("save"), false, r.error.message);
            if (r.value.isEmpty())
                return finished(QStringLiteral("save"), false, noProfilesMessage(q));
            // The file dialog already asked before replacing a file.
            const QString error = writeGzipPprof(path, r.value.pprof, true);
            if (!error.isEmpty())
                return finished(QStringLiteral("save"), false, error);
            const TotalsCheck check = checkExportTotals(total, r.value.profile.get(), type);
            finished(QStringLiteral("save"), true,
                     check.agree ? QString()
                                 : tr("Saved %1, but: %2").arg(path, check.message));
        });
    });
}

}   // namespace qflame::qryn
