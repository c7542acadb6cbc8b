// libFuzzer target: the legacy /pyroscope/render and /render-diff JSON answers (LegacyRender.h), then the
// profiles and trees built from them. The first byte picks render or render-diff.
#include "Exercise.h"
#include "formats/ProfileInput.h"
#include "qryn/LegacyRender.h"
#include "qryn/StacksToTree.h"

using namespace qflame::qryn;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const QByteArray body(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    QString why;
    try {
        if (data[0] & 1) {
            RenderDiffResult diff;
            ProfileType type;
            ProfileType::parse("process_cpu:cpu:nanoseconds:cpu:nanoseconds", &type);
            if (parseRenderDiff(body, &diff, &why))
                (void)buildDiffProfiles(&diff, type, &why);
        } else {
            RenderResult render;
            if (parseRender(body, &render, &why) && render.flamegraph.profile) {
                buildTree(&render.flamegraph);
                if (render.flamegraph.tree && render.flamegraph.flat)
                    qflame::fuzz::checkTree(*render.flamegraph.tree, *render.flamegraph.flat);
            }
        }
    } catch (const qflame::ProfileError &) {   // the flamebearer reader's refusals
    }
    return 0;
}
