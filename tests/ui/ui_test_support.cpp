#include "ui_test_support.h"

namespace ckptlab::ui::test {

void WindowTest::init() { m_recorder.reset(); }

}  // namespace ckptlab::ui::test
