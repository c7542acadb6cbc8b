// QrynExplorer grouped by a label (issue 36): the table of values beside the timeline, and what two or more
// picked values open. The numbers are qryn/LabelGroups'.
#include "explorer/QrynExplorer.h"

#include "explorer/LabelGroupView.h"
#include "explorer/TimelineView.h"
#include "explorer/TimelineWidget.h"
#include "qryn/LabelGroups.h"

namespace qflame::qryn {

LabelGroupView *QrynExplorer::createGroupView()
{
    auto *view = new LabelGroupView;
    view->hide();
    connect(view, &LabelGroupView::compareRequested, this, &QrynExplorer::compareValues);
    return view;
}

void QrynExplorer::showTimeline(const StepTimeline &timeline, const QString &groupBy)
{
    if (groupBy.isEmpty() || timeline.isEmpty()) {
        m_groupView->hide();
        m_timeline->setTimeline(timeline);
        return;
    }
    const LabelGroups groups = groupByLabel(timeline, groupBy);
    m_timeline->setTimeline(groupedTimeline(timeline, groups));
    m_groupView->setGroups(groups);
    m_groupView->show();
}

void QrynExplorer::compareValues(const QStringList &values)
{
    QString why;
    if (values.size() < 2 || !ready(&why))
        return finished(QStringLiteral("compare"), false, why);
    const LabelGroups &groups = m_groupView->groups();
    const ProfileQuery q = query();
    ServerRoundsQuery rounds;
    rounds.profileTypeId = q.profileTypeId;
    rounds.stepSeconds = m_timeline->timeline().stepSeconds;   // the table's steps, so the noise is the table's
    for (const QString &v : values)
        rounds.rounds.push_back({(groups.key + QLatin1Char('=') + v).toStdString(),
                                 selectorWithValue(q.labelSelector, groups.key, v), q.range});
    if (values.size() > 2) {
        Q_EMIT roundsRequested(m_client->settings(), rounds);
        return finished(QStringLiteral("rounds"), true, QString());
    }
    // Two values: their rounds on a pool thread (a client of its own there, as a rounds tab fetches), compared as
    // the rounds tab and `qflame rounds --url` compare them, then the merged trees handed to the window with the
    // noise their steps measured.
    const ConnectionSettings settings = m_client->settings();
    m_groupValuesJob.start(
        [settings, rounds] {
            ValuesFetched result;
            try {
                ServerRounds fetched = fetchServerRounds(settings, rounds, [] { return false; });
                const RoundsResult compared = compareServerRounds(fetched, RoundsOptions());
                result.noise = std::make_shared<MeasuredNoise>(measuredNoiseBetween(compared, 0, 1));
                result.inputs = std::move(fetched.rounds);
            } catch (const std::exception &e) {
                result.error = QString::fromStdString(e.what());
            }
            return result;
        },
        [this](ValuesFetched result) {
            if (!result.error.isEmpty() || result.inputs.size() != 2)
                return finished(QStringLiteral("compare"), false, result.error);
            Q_EMIT compareTreesRequested(QString::fromStdString(result.inputs[0].name), result.inputs[0].profiles,
                                         QString::fromStdString(result.inputs[1].name), result.inputs[1].profiles,
                                         result.noise);
            finished(QStringLiteral("compare"), true, QString());
        });
}

}   // namespace qflame::qryn
