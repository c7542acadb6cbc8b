#include "QrynTypes.h"

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

}   // namespace qflame::qryn
