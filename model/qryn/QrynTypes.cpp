#include "qryn/QrynTypes.h"

#include "qryn/TimeSpec.h"

namespace qflame::qryn {

bool ProfileType::parse(const QString &id, ProfileType *out)
{
    const QStringList parts = id.split(QLatin1Char(':'));
    if (parts.size() != 5)
        return false;
    for (const QString &p : parts)
        if (p.isEmpty())
            return false;
    *out = ProfileType{id, parts[0], parts[1], parts[2], parts[3], parts[4]};
    return true;
}

QString labelValue(const LabelSet &labels, const QString &name)
{
    for (const LabelPair &l : labels)
        if (l.name == name)
            return l.value;
    return {};
}

QString noProfilesMessage(const ProfileQuery &q)
{
    return QStringLiteral("no profiles of type %1 match %2 between %3 and %4")
        .arg(q.profileTypeId, q.labelSelector.isEmpty() ? QStringLiteral("{}") : q.labelSelector,
             formatTimeMs(q.range.startMs), formatTimeMs(q.range.endMs));
}

}   // namespace qflame::qryn
