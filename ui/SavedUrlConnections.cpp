#include "SavedUrlConnections.h"

#include "explorer/ConnectionStore.h"

#include <QPointer>

namespace qflame {

SavedConnections savedConnectionsOf(qryn::ConnectionStore *store)
{
    QPointer<qryn::ConnectionStore> s(store);
    SavedConnections saved;
    saved.names = [s] { return s ? s->names() : QStringList(); };
    saved.connection = [s](const QString &name) { return s ? s->connection(name) : qryn::ConnectionSettings(); };
    saved.withSecrets = [s](const QString &name, qryn::ConnectionSettings settings,
                            std::function<void(qryn::ConnectionSettings, QString)> done) {
        if (s)
            s->withSecrets(name, std::move(settings), std::move(done));
    };
    return saved;
}

}   // namespace qflame
