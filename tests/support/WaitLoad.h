// Waiting in a GUI test for a window's or a tab's job: MainWindow and every DocumentPane say loadFinished(bool ok)
// when what they read or built is shown (or failed).
#pragma once

#include <QSignalSpy>

namespace qflame::test {

// Whether the next loadFinished of `object` came within `timeoutMs`, alone, with `expectOk`.
template <class T>
bool waitLoad(T &object, bool expectOk = true, int timeoutMs = 60000)
{
    QSignalSpy spy(&object, &T::loadFinished);
    return spy.wait(timeoutMs) && spy.count() == 1 && spy.at(0).at(0).toBool() == expectOk;
}

}   // namespace qflame::test
