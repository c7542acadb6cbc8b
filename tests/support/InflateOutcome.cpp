#include "InflateOutcome.h"

namespace qflame::test {

QString InflateOutcome::kind() const
{
    if (error.empty())
        return QStringLiteral("ok");
    return QString::fromStdString(error.substr(0, error.find_first_of("(")));
}

InflateOutcome inflateAll(std::string_view in, Compression c, GzipLibrary library, size_t readSize, uint64_t cap,
                          const InputArrival *arrival)
{
    InflateOutcome o;
    try {
        Inflater inflater(in, c, cap, library, arrival);
        std::string block(readSize, '\0');
        while (size_t got = inflater.read(block.data(), block.size()))
            o.bytes.append(block.data(), got);
    } catch (const ProfileError &e) {
        o.error = e.what();
    }
    return o;
}

}   // namespace qflame::test
