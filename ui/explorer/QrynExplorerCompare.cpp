// The explorer's comparisons (QrynExplorer.h): two ranges, selectors, pinned ranges or listed profiles compared in
// the diff view (each side fetched with its samples:count sibling, the diff built on the pool), more as rounds.
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

void QrynExplorer::openRounds()
{
    QString why;
    if (!ready(&why))
        return finished(QStringLiteral("rounds"), false, why);
    const ProfileQuery q = query();
    ServerRoundsQuery rounds;
    rounds.profileTypeId = q.profileTypeId;
    // A step the user chose is the rounds' too, so their observations are the summary line's; Auto lets each
    // round choose its own (about 60 steps of its window).
    rounds.stepSeconds = m_timelineView->chosenStepSeconds();
    const auto b = m_timeline->brush(TimelineWidget::Baseline), c = m_timeline->brush(TimelineWidget::Comparison);
    const QString otherSelector = m_comparisonSelector->text().trimmed();
    const std::string base = tr("baseline").toStdString(), other = tr("comparison").toStdString();
    if (m_ranges->count() >= 2)
        rounds.rounds = m_ranges->specs();
    else if (b && c)
        rounds.rounds = {{base, q.labelSelector, *b}, {other, q.labelSelector, *c}};
    else if (!otherSelector.isEmpty())
        rounds.rounds = {{base, q.labelSelector, q.range}, {other, otherSelector, q.range}};
    else
        rounds.rounds = {{tr("range").toStdString(), q.labelSelector, b ? *b : q.range}};
    Q_EMIT roundsRequested(m_client->settings(), rounds);
    finished(QStringLiteral("rounds"), true, QString());
}

void QrynExplorer::compare()
{
    QString why;
    if (!ready(&why))
        return finished(QStringLiteral("compare"), false, why);
    // Pinned ranges and selectors first: two compared, more as rounds.
    if (m_ranges->count() > 2)
        return openRounds();
    if (m_ranges->count() == 2) {
        const ServerRoundSpec &r0 = m_ranges->specs()[0], &r1 = m_ranges->specs()[1];
        return compareQueries({profileType(), r0.selector, r0.range}, {profileType(), r1.selector, r1.range},
                              QStringLiteral("compare"));
    }
    ProfileQuery base = query(), other = query();
    const auto b = m_timeline->brush(TimelineWidget::Baseline), c = m_timeline->brush(TimelineWidget::Comparison);
    const QString otherSelector = m_comparisonSelector->text().trimmed();
    if (b && c) {
        base.range = *b;
        other.range = *c;
    } else if (!otherSelector.isEmpty()) {
        other.labelSelector = otherSelector;
    } else {
        m_lastCompare = {};   // nothing for Retry to repeat
        return finished(QStringLiteral("compare"), false,
                        tr("Nothing to compare: brush a baseline (drag) and a comparison (Shift+drag) on the "
                           "timeline, or type a comparison selector, or pin ranges or selectors (Add range, "
                           "Add selector)"));
    }
    compareQueries(base, other, QStringLiteral("compare"));
}

void QrynExplorer::compareQueries(const ProfileQuery &base, const ProfileQuery &other, const QString &what,
                                  bool windowsAsRates)
{
    m_lastCompare = [this, base, other, what, windowsAsRates] { compareQueries(base, other, what, windowsAsRates); };
    // Both sides are collected here (each its flamegraph and samples:count sibling: qryn/ComparisonSide.h), then
    // the diff is built off the GUI thread.
    using Side = std::shared_ptr<const Profile>;
    auto sides = std::make_shared<std::pair<std::optional<Side>, std::optional<Side>>>();
    m_compareJob.drop();   // an earlier comparison's diff, still being built, is of no use now
    auto onSide = [this, sides, base, other, what, windowsAsRates](int which, SideResult r) {
        if (r.error.kind == ErrorKind::Cancelled)
            return;
        if (!r.ok() || !r.value) {
            m_sideJobs[1 - which].drop();   // the other side's answer is of no use now
            return finished(what, false, r.ok() ? noProfilesMessage(which == 0 ? base : other) : r.error.message);
        }
        (which == 0 ? sides->first : sides->second) = r.value;
        if (!sides->first || !sides->second)
            return;
        DiffOptions options = m_diff->options();
        // Two windows compare by rate (each merged profile's duration is its window's length); two selectors
        // over one window keep the view's choice.
        if (windowsAsRates &&
            (base.range.lengthMs() != other.range.lengthMs() || base.range.startMs != other.range.startMs))
            options.normalization = Normalization::PerSecond;
        const Side before = *sides->first, after = *sides->second;
        ProfileType type;
        ProfileType::parse(base.profileTypeId, &type);
        const SampleTypeInfo compared{type.sampleType.toStdString(), type.sampleUnit.toStdString()};
        m_compareJob.start(
            [before, after, options, compared] {
                DiffResult d;
                try {
                    d.diff = DiffTree::build(DiffSide::fromProfiles({before}, compared),
                                             DiffSide::fromProfiles({after}, compared), options);
                } catch (const std::exception &e) {
                    d.error = QString::fromStdString(e.what());
                }
                return d;
            },
            [this, what](DiffResult d) {
                if (!d.error.isEmpty())
                    return finished(what, false, d.error);
                m_diff->setDiff(d.diff);
                m_stack->setCurrentWidget(m_diff);
                showMessage(QString(), false);
                finished(what, true, QString());
            });
    };
    const QStringList *known = m_serverTypes.isEmpty() ? nullptr : &m_serverTypes;
    m_sideJobs[0].follow(fetchComparisonSide(*m_client, base, known),
                         [onSide](SideResult r) mutable { onSide(0, std::move(r)); });
    m_sideJobs[1].follow(fetchComparisonSide(*m_client, other, known),
                         [onSide](SideResult r) mutable { onSide(1, std::move(r)); });
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
