#pragma once
// The config fields' labels in the user's language, keyed by config_fields.h's keys: the one
// place the app keeps a word per field (its error messages, the comparison's differences, the
// scaling axes). test_translations checks that every field of the registry has one.

#include <QString>
#include <string_view>

namespace ckptlab::ui {

// The field's label translated ("memory limit" -> "内存上限"); the key itself when the table has
// no entry for it.
QString configFieldLabel(std::string_view key);
// The table's entry for `key` as the translator looks it up in the "CoreText" context: its
// source text (the registry's English label) and comment; both null when it has none.
struct ConfigFieldLabelText {
    const char* source = nullptr;
    const char* comment = nullptr;
};
ConfigFieldLabelText configFieldLabelText(std::string_view key);

}  // namespace ckptlab::ui
