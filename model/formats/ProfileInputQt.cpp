// The front door's file readers for paths held as QString: the Qt part of the model, so that the core (the door,
// the readers, the tree and the reports, which `qflame top` runs) links no Qt.
#include "formats/ProfileInput.h"

#include <QString>

namespace qflame {

std::shared_ptr<const Profile> readProfileFile(const QString &path, const ReadOptions &options)
{
    return readProfileFile(path.toStdString(), options);
}

std::shared_ptr<const Profile> readPprofFile(const QString &path, const ReadOptions &options)
{
    return readPprofFile(path.toStdString(), options);
}

}   // namespace qflame
