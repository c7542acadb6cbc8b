// The explorer's parts beyond one query (QrynExplorer.h): the list of a range's individual profiles and what opens
// from it, the pinned ranges and selectors, Retry, the start from the command line, and the query remembered per
// connection.
#include "explorer/QrynExplorer.h"

#include "explorer/ConnectionStore.h"
#include "explorer/LabelSelectorEdit.h"
#include "explorer/ProfileListView.h"
#include "explorer/RangeList.h"
#include "explorer/TimelineWidget.h"

#include "document/DocumentPane.h"
#include "io/ReadOptions.h"
#include "qryn/TimeSpec.h"

#include <QComboBox>
#include <QDateTime>
#include <QDateTimeEdit>
#include <QPushButton>
#include <QStackedWidget>
#include <QtConcurrent/QtConcurrentRun>

namespace qflame::qryn {

void QrynExplorer::createMoreWidgets()
{
    m_profileList = new ProfileListView;
    m_profileList->hide();
    m_ranges = new RangeList;
    m_retry = new QPushButton(tr("Retry"));
    m_retry->setToolTip(tr("Ask the server again for what failed; what the tab shows stays until the answer"));
    m_retry->hide();
    m_profilesButton = new QPushButton(tr("Profiles"));
    m_profilesButton->setCheckable(true);
    m_profilesButton->setToolTip(tr("The individual profiles of the brushed baseline (or of the range): open one, "
                                    "or compare two"));

    connect(m_retry, &QPushButton::clicked, this, &QrynExplorer::retry);
    connect(m_profilesButton, &QPushButton::toggled, this, [this](bool on) {
        m_profileList->setVisible(on);
        if (on)
            listProfiles();
    });
    // A list that is shown follows the flamegraph's range (a load, a brush).
    connect(this, &QrynExplorer::requestFinished, this, [this](const QString &what, bool ok) {
        if (what == u"flamegraph" && ok && m_profileList->isVisible())
            listProfiles();
    });
    connect(m_profileList, &ProfileListView::reloadRequested, this, &QrynExplorer::listProfiles);
    connect(m_profileList, &ProfileListView::openRequested, this, &QrynExplorer::openEntry);
    connect(m_profileList, &ProfileListView::compareRequested, this, &QrynExplorer::compareEntries);
    connect(m_ranges, &RangeList::addRangeRequested, this, &QrynExplorer::addRange);
    connect(m_ranges, &RangeList::addSelectorRequested, this, &QrynExplorer::addSelector);
}

void QrynExplorer::showMerged(MergedFlamegraph merged)
{
    // The previous answer is freed off the GUI thread: a big flamegraph takes tens of ms to free (tst_qrynstall).
    (void)QtConcurrent::run([old = std::make_shared<MergedFlamegraph>(std::exchange(m_merged, std::move(merged)))] {});
    LoadedView view;
    view.profiles = {m_merged.profile};
    view.sampleType = 0;
    view.tree = m_merged.tree;
    view.layout = m_merged.layout;
    view.flat = m_merged.flat;
    m_profile->showLoaded(std::move(view));
    m_stack->setCurrentWidget(m_profile);
    setHasContent();
}

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

void QrynExplorer::listProfiles()
{
    QString why;
    if (!ready(&why))
        return finished(QStringLiteral("profiles"), false, why);
    ProfileQuery q = query();
    if (const auto b = m_timeline->brush(TimelineWidget::Baseline))
        q.range = *b;
    listProfilesOf(q);
}

void QrynExplorer::listProfilesOf(const ProfileQuery &q)
{
    m_listQuery = q;
    m_profileList->setStatus(tr("Asking %1 for the profiles...").arg(m_client->settings().displayUrl()));
    ProfileType type;
    ProfileType::parse(q.profileTypeId, &type);
    watch<std::vector<ProfileEntry>>(
        qryn::listProfiles(*m_client, q), &m_listGen, [this, q, unit = type.sampleUnit](Result<std::vector<ProfileEntry>> r) {
            if (!r.ok()) {
                m_profileList->setStatus(r.error.message);
                return finished(QStringLiteral("profiles"), false, r.error.message);
            }
            const bool none = r.value.empty();
            m_profileList->setEntries(std::move(r.value), unit, q.range);
            finished(QStringLiteral("profiles"), true, none ? noProfilesMessage(q) : QString());
        });
}

void QrynExplorer::openEntry(const ProfileEntry &entry)
{
    QString why;
    if (!ready(&why))
        return finished(QStringLiteral("profile"), false, why);
    ProfileQuery q;
    try {
        q = entryQuery(entry, m_listQuery);
    } catch (const ProfileError &e) {
        m_lastEntry = {};
        return finished(QStringLiteral("profile"), false, QString::fromStdString(e.what()));
    }
    m_lastEntry = [this, entry] { openEntry(entry); };
    ProfileType type;
    ProfileType::parse(q.profileTypeId, &type);
    watch<MergedFlamegraph>(m_client->selectMergeStacktraces(q), &m_entryGen,
                            [this, q, entry, unit = type.sampleUnit](Result<MergedFlamegraph> r) {
                                if (!r.ok())
                                    return finished(QStringLiteral("profile"), false, r.error.message);
                                if (r.value.isEmpty())
                                    return finished(QStringLiteral("profile"), false, noProfilesMessage(q));
                                const QString check = checkEntryTotal(entry, r.value.graph.total, unit);
                                showMerged(std::move(r.value));
                                m_profileList->setStatus(
                                    tr("Shown: the profile of %1 under {%2}")
                                        .arg(QDateTime::fromMSecsSinceEpoch(entry.timestampMs)
                                                 .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                                             labelsText(entry.labels)));
                                showMessage(check, false);
                                finished(QStringLiteral("profile"), true, check);
                            });
}

void QrynExplorer::compareEntries(const ProfileEntry &baseline, const ProfileEntry &comparison)
{
    QString why;
    if (!ready(&why))
        return finished(QStringLiteral("compare"), false, why);
    try {
        compareQueries(entryQuery(baseline, m_listQuery), entryQuery(comparison, m_listQuery),
                       QStringLiteral("compare"), false);
    } catch (const ProfileError &e) {
        m_lastCompare = {};   // the same rows would fail the same way
        finished(QStringLiteral("compare"), false, QString::fromStdString(e.what()));
    }
}

void QrynExplorer::addRange()
{
    const TimeRange r = m_timeline->brush(TimelineWidget::Baseline).value_or(range());
    const QString sel = selector().isEmpty() ? QStringLiteral("{}") : selector();
    m_ranges->add({rangeName(r, QDateTime::currentMSecsSinceEpoch()).toStdString(), sel, r});
}

void QrynExplorer::addSelector()
{
    const TimeRange r = m_timeline->brush(TimelineWidget::Baseline).value_or(range());
    QString sel = m_comparisonSelector->text().trimmed();
    if (sel.isEmpty())
        sel = selector().isEmpty() ? QStringLiteral("{}") : selector();
    m_ranges->add({sel.toStdString(), sel, r});
}

}   // namespace qflame::qryn
