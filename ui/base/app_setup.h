#pragma once
// One-time setup shared by the app, the tests and the CLI's chart export.

namespace ckptlab::ui {

// Registers the core types used in queued signals and the compiled-in resources (icon).
// Safe to call more than once.
void initializeUi();

}  // namespace ckptlab::ui
