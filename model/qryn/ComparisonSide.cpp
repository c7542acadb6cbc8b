#include "qryn/ComparisonSide.h"

#include "qryn/QrynClient.h"
#include "qryn/StacksToTree.h"

namespace qflame::qryn {

QString sampleCountTypeId(const ProfileType &type)
{
    if (type.sampleType == u"samples" && type.sampleUnit == u"count")
        return {};
    return QStringLiteral("%1:samples:count:%2:%3").arg(type.name, type.periodType, type.periodUnit);
}

SideResult comparisonSide(const ProfileQuery &query, const Result<MergedFlamegraph> &values,
                          const std::optional<Result<MergedFlamegraph>> &counts)
{
    SideResult out;
    if (!values.ok()) {
        out.error = values.error;
        return out;
    }
    if (counts && !counts->ok()) {
        out.error = counts->error;
        return out;
    }
    if (values.value.isEmpty())
        return out;   // nothing matched
    if (!counts || counts->value.isEmpty()) {
        out.value = values.value.profile;
        return out;
    }
    ProfileType type, countType;
    ProfileType::parse(query.profileTypeId, &type);
    ProfileType::parse(sampleCountTypeId(type), &countType);
    QString why;
    out.value = flamegraphsToProfile({counts->value.graph, values.value.graph}, {countType, type},
                                     std::max<qint64>(0, query.range.lengthMs()) * 1'000'000,
                                     query.labelSelector.toStdString(), &why);
    if (!out.value)
        out.error = {ErrorKind::Undecodable, 200,
                     QStringLiteral("SelectMergeStacktraces: the flamegraphs of %1 and %2 are inconsistent: %3")
                         .arg(type.id, countType.id, why)};
    return out;
}

QFuture<SideResult> fetchComparisonSide(QrynClient &client, const ProfileQuery &query, const QStringList *knownTypes)
{
    ProfileType type;
    QString countsId;
    if (ProfileType::parse(query.profileTypeId, &type))
        countsId = sampleCountTypeId(type);
    if (knownTypes && !knownTypes->contains(countsId))
        countsId.clear();
    QFuture<Result<MergedFlamegraph>> values = client.selectMergeStacktraces(query);
    if (countsId.isEmpty())
        return values.then(QtFuture::Launch::Async,
                           [query](Result<MergedFlamegraph> v) { return comparisonSide(query, v, std::nullopt); });
    ProfileQuery countsQuery = query;
    countsQuery.profileTypeId = countsId;
    QFuture<Result<MergedFlamegraph>> counts = client.selectMergeStacktraces(countsQuery);
    // Both answers, then the merge of their stacks on the pool; a cancelled request cancels the side.
    QList<QFuture<Result<MergedFlamegraph>>> both{values, counts};
    return QtFuture::whenAll(both.begin(), both.end())
        .then(QtFuture::Launch::Async, [query](const QList<QFuture<Result<MergedFlamegraph>>> &answers) {
            for (const auto &f : answers)
                if (f.isCanceled() || f.resultCount() == 0) {
                    SideResult cancelled;
                    cancelled.error = {ErrorKind::Cancelled, 0, QStringLiteral("the request was cancelled")};
                    return cancelled;
                }
            return comparisonSide(query, answers[0].result(), answers[1].result());
        });
}

}   // namespace qflame::qryn
