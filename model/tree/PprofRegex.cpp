#include "tree/PprofRegex.h"

namespace qflame {

QRegularExpression compileRequiredPprofRegex(const std::string &pattern, const char *option)
{
    QRegularExpression re(QString::fromStdString(pattern));
    if (!re.isValid())
        throw FilterError(std::string("parsing ") + option + " regexp: " + re.errorString().toStdString() +
                          " at offset " + std::to_string(re.patternErrorOffset()));
    // Matched once per function, mapping or label, then cached: compile now rather than on first use.
    re.optimize();
    return re;
}

std::optional<QRegularExpression> compilePprofRegex(const std::string &pattern, const char *option)
{
    if (pattern.empty())
        return std::nullopt;
    return compileRequiredPprofRegex(pattern, option);
}

}   // namespace qflame
