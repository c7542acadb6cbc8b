// The explorer's list of a range's individual profiles and what opens from it (QrynExplorer.h), the flamegraph
// shown in the tab, and the widgets beyond one query (the list, the pinned ranges, Retry).
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
    releaseOffThread(std::exchange(m_merged, std::move(merged)));
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
    m_listJob.follow(
        qryn::listProfiles(*m_client, q), [this, q, unit = type.sampleUnit](Result<std::vector<ProfileEntry>> r) {
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
    m_entryJob.follow(m_client->selectMergeStacktraces(q),
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

}   // namespace qflame::qryn
