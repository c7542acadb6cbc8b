// Work shared with one helper thread, for the places that split a job in two (the visible-frame walk, the 4K
// row copy): both halves have ended when runBeside returns, whatever happened.
#pragma once

#include "io/HelperThread.h"

#include <exception>
#include <optional>
#include <system_error>
#include <thread>

namespace qflame {

// Runs `helper` on a second thread while this thread runs `own`. Without a thread to be had, `helper` runs
// here afterwards. An exception from either (out of memory) leaves once both are done, this thread's first;
// none escapes the helper thread (which would end the program).
template <typename Helper, typename Own>
void runBeside(Helper &&helper, Own &&own)
{
    std::exception_ptr helperError;
    std::optional<std::thread> thread;
    try {
        thread.emplace(startHelperThread([&] {
            try {
                helper();
            } catch (...) {
                helperError = std::current_exception();
            }
        }));
    } catch (const std::system_error &) {
    }
    try {
        own();
    } catch (...) {
        if (thread)
            thread->join();
        throw;
    }
    if (thread)
        thread->join();
    else
        helper();
    if (helperError)
        std::rethrow_exception(helperError);
}

}   // namespace qflame
