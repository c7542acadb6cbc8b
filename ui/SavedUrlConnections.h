// The saved qryn connections (explorer/ConnectionStore) offered by File > Open URL... (controls/OpenUrlDialog),
// which may not include the explorer: a loose file of ui/, as the window is.
#pragma once

#include "controls/OpenUrlDialog.h"

namespace qflame {

namespace qryn {
class ConnectionStore;
}

// The store's connections, their secrets read through it (the keychain); `store` must outlive the dialog's use.
SavedConnections savedConnectionsOf(qryn::ConnectionStore *store);

}   // namespace qflame
