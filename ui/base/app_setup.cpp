#include "base/app_setup.h"

#include <QtGlobal>

#include "base/metatypes.h"

// Q_INIT_RESOURCE must be used outside any namespace. The resources live in the static
// ckptlab_ui library, whose qrc object the linker would drop unless something references it.
static void initResources() {
    Q_INIT_RESOURCE(resources);
    Q_INIT_RESOURCE(ckptlab_i18n);  // translations/*.ts compiled to :/i18n/ckptlab_<code>.qm
}

namespace ckptlab::ui {

void initializeUi() {
    static bool done = false;
    if (done) return;
    done = true;
    initResources();
    qRegisterMetaType<ExperimentConfig>();
    qRegisterMetaType<Environment>();
    qRegisterMetaType<RunResult>();
    qRegisterMetaType<ResultSet>();
    qRegisterMetaType<MeasuredRun>();
    qRegisterMetaType<Frontier>();
    qRegisterMetaType<TimingRounds>();
}

}  // namespace ckptlab::ui
