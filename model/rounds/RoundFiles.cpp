#include "rounds/RoundFiles.h"

#include "formats/ProfileInput.h"

#include <QtConcurrent/QtConcurrentMap>

#include <atomic>
#include <mutex>

namespace qflame {

std::vector<RoundInput> readRoundFiles(const std::vector<RoundFiles> &rounds, const ReadOptions &options)
{
    struct File {
        size_t round;
        QString path;
        std::string error;
        std::shared_ptr<const Profile> profile;
    };
    std::vector<File> files;
    for (size_t r = 0; r < rounds.size(); ++r)
        for (const QString &path : rounds[r].paths)
            files.push_back({r, path, {}, {}});
    ReadOptions each = options;
    each.progress = {};   // per file it would jump back and forth between threads
    std::atomic<size_t> done{0};
    std::atomic<bool> cancelled{false};
    std::mutex progressMutex;
    QtConcurrent::blockingMap(files, [&](File &f) {
        if (cancelled.load())
            return;
        try {
            f.profile = readProfileFile(f.path, each);
        } catch (const std::exception &e) {
            f.error = e.what();
        }
        const size_t n = ++done;
        if (options.progress) {
            const std::lock_guard<std::mutex> lock(progressMutex);
            if (!options.progress(double(n) / double(files.size())))
                cancelled = true;
        }
    });
    if (cancelled)
        throw Cancelled();
    std::vector<RoundInput> out;
    for (const RoundFiles &r : rounds)
        out.push_back({r.name, {}, {}});
    for (File &f : files) {
        if (!f.error.empty())
            throw ProfileError("round " + out[f.round].name + ": " + f.error);
        out[f.round].profiles.push_back(std::move(f.profile));
    }
    return out;
}

}   // namespace qflame
