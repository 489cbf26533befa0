//===- ModifyMixList.cpp - modify_mixlist JSON (ML-5 .. ML-9) -------------===//

#include "AscendPrec/Policy/ConfigFiles.h"
#include "AscendPrec/Policy/Json.h"

#include <algorithm>

namespace ascendprec::policy {

std::string listColorName(ListColor color) {
  switch (color) {
  case ListColor::None:
    return "none";
  case ListColor::White:
    return "white";
  case ListColor::Black:
    return "black";
  case ListColor::Gray:
    return "gray";
  }
  return "none";
}

namespace {

std::string editName(const MixListEdit &edit) {
  return (edit.add ? "add-" : "remove-") + listColorName(edit.list);
}

bool has(const std::vector<MixListEdit> &edits, ListColor list, bool add) {
  return std::any_of(edits.begin(), edits.end(), [&](const MixListEdit &e) {
    return e.list == list && e.add == add;
  });
}

/// ML-6: the legal combinations of edits for one op type.
bool isLegalCombination(const std::vector<MixListEdit> &edits) {
  unsigned mask = 0;
  for (const MixListEdit &edit : edits) {
    unsigned bit = (edit.add ? 0 : 3) + (edit.list == ListColor::White   ? 0
                                         : edit.list == ListColor::Black ? 1
                                                                         : 2);
    mask |= 1u << bit;
  }
  // bits: 0 add-white, 1 add-black, 2 add-gray, 3 remove-white,
  //       4 remove-black, 5 remove-gray
  constexpr unsigned AW = 1, AB = 2, AG = 4, RW = 8, RB = 16, RG = 32;
  static constexpr unsigned legal[] = {
      RB,      RW,      AG,      AG | RB, AG | RW, AW,
      AW | RG, AW | RB, AB,      AB | RG, AB | RW};
  return std::find(std::begin(legal), std::end(legal), mask) != std::end(legal);
}

} // namespace

ListColor ModifyMixList::apply(const std::string &opType, ListColor builtin,
                               std::vector<MixListEdit> *removedAbsent) const {
  auto it = edits.find(opType);
  if (it == edits.end())
    return builtin;
  const std::vector<MixListEdit> &opEdits = it->second;
  // ML-7: removing an op from a list it is not on changes nothing.
  auto effectiveRemove = [&](ListColor list) {
    if (!has(opEdits, list, /*add=*/false))
      return false;
    if (builtin == list)
      return true;
    if (removedAbsent)
      for (const MixListEdit &edit : opEdits)
        if (!edit.add && edit.list == list)
          removedAbsent->push_back(edit);
    return false;
  };
  bool removeWhite = effectiveRemove(ListColor::White);
  bool removeBlack = effectiveRemove(ListColor::Black);
  effectiveRemove(ListColor::Gray);
  // ML-6: black.to-add wins over white.to-add; adds decide the colour.
  if (has(opEdits, ListColor::Black, true))
    return ListColor::Black;
  if (has(opEdits, ListColor::White, true))
    return ListColor::White;
  if (has(opEdits, ListColor::Gray, true))
    return ListColor::Gray;
  // A removal alone moves the op to the gray list.
  if (removeWhite || removeBlack)
    return ListColor::Gray;
  return builtin;
}

const MixListEdit *ModifyMixList::decidingEdit(const std::string &opType,
                                               ListColor builtin) const {
  auto it = edits.find(opType);
  if (it == edits.end())
    return nullptr;
  for (ListColor list : {ListColor::Black, ListColor::White, ListColor::Gray})
    for (const MixListEdit &edit : it->second)
      if (edit.add && edit.list == list)
        return &edit;
  for (const MixListEdit &edit : it->second)
    if (!edit.add && edit.list == builtin)
      return &edit;
  return nullptr;
}

std::optional<ModifyMixList> parseModifyMixList(std::string_view text,
                                                const std::string &file,
                                                DiagnosticList &diags) {
  size_t errorsBefore = diags.errorCount();
  std::optional<JsonValue> root = parseJson(text, file, diags);
  if (!root)
    return std::nullopt;
  const std::string listShape =
      "{\"black-list\"|\"white-list\"|\"gray-list\": {\"to-add\"|\"to-remove\": "
      "[op types]}}";
  if (!root->isObject()) {
    diags.error(root->loc, "modify_mixlist must be a JSON object of the form " +
                               listShape + ", found " + root->kindName(),
                "ML-5");
    return std::nullopt;
  }
  if (root->object.empty()) {
    diags.error(root->loc, "modify_mixlist is an empty object; expected at "
                           "least one of \"black-list\", \"white-list\", "
                           "\"gray-list\"",
                "ML-9");
    return std::nullopt;
  }

  static const std::vector<std::string> listKeys = {"black-list", "white-list",
                                                    "gray-list"};
  static const std::vector<std::string> actionKeys = {"to-add", "to-remove"};
  ModifyMixList result;
  result.path = file;
  for (size_t i = 0; i < root->object.size(); ++i) {
    const auto &[listKey, listValue] = root->object[i];
    const SourceLoc &keyLoc = root->keyLocs[i];
    ListColor list = listKey == "black-list"   ? ListColor::Black
                     : listKey == "white-list" ? ListColor::White
                     : listKey == "gray-list"  ? ListColor::Gray
                                               : ListColor::None;
    if (list == ListColor::None) {
      std::string hint = closestMatch(listKey, listKeys);
      diags.error(keyLoc, "unknown key \"" + listKey + "\"; expected " +
                              joinChoices({"\"black-list\"", "\"white-list\"",
                                           "\"gray-list\""}) +
                              (hint.empty() ? "" : " (did you mean \"" + hint +
                                                       "\"?)"),
                  "ML-5");
      continue;
    }
    if (!listValue.isObject()) {
      diags.error(listValue.loc, "\"" + listKey +
                                     "\" must be an object with \"to-add\" "
                                     "and/or \"to-remove\", found " +
                                     listValue.kindName(),
                  "ML-5");
      continue;
    }
    for (size_t j = 0; j < listValue.object.size(); ++j) {
      const auto &[actionKey, actionValue] = listValue.object[j];
      if (actionKey != "to-add" && actionKey != "to-remove") {
        std::string hint = closestMatch(actionKey, actionKeys);
        diags.error(listValue.keyLocs[j],
                    "unknown key \"" + actionKey + "\" in \"" + listKey +
                        "\"; expected \"to-add\" or \"to-remove\"" +
                        (hint.empty() ? "" : " (did you mean \"" + hint + "\"?)"),
                    "ML-5");
        continue;
      }
      if (!actionValue.isArray()) {
        diags.error(actionValue.loc, "\"" + listKey + "\".\"" + actionKey +
                                         "\" must be an array of op type "
                                         "strings, found " +
                                         actionValue.kindName(),
                    "ML-5");
        continue;
      }
      for (const JsonValue &opType : actionValue.array) {
        if (!opType.isString() || opType.string.empty()) {
          diags.error(opType.loc, "expected an op type string such as "
                                  "\"Conv2D\", found " +
                                      (opType.isString() ? std::string("an empty string")
                                                         : opType.kindName()),
                      "ML-5");
          continue;
        }
        std::vector<MixListEdit> &edits = result.edits[opType.string];
        MixListEdit edit{list, actionKey == "to-add", opType.loc};
        auto duplicate = std::find_if(
            edits.begin(), edits.end(), [&](const MixListEdit &e) {
              return e.list == edit.list && e.add == edit.add;
            });
        if (duplicate != edits.end()) {
          diags.warning(opType.loc, "\"" + opType.string + "\" is listed twice in \"" +
                                        listKey + "\".\"" + actionKey + "\"",
                        "ML-5")
              .notes.push_back({Severity::Note, "", duplicate->loc,
                                "first listed here", {}});
          continue;
        }
        edits.push_back(edit);
      }
    }
  }

  // ML-6: only the documented combinations per op type.
  for (const auto &[opType, edits] : result.edits) {
    if (isLegalCombination(edits))
      continue;
    std::string combination;
    for (const MixListEdit &edit : edits)
      combination += (combination.empty() ? "" : " + ") + editName(edit);
    Diagnostic &error = diags.error(
        edits.front().loc,
        "op type \"" + opType + "\" has the conflicting edits " + combination +
            "; an op type may be added to one list at most, and removed only "
            "from a list it is not added to",
        "ML-6");
    for (const MixListEdit &edit : edits)
      error.notes.push_back(
          {Severity::Note, "", edit.loc, editName(edit) + " here", {}});
  }

  if (diags.errorCount() != errorsBefore)
    return std::nullopt;
  return result;
}

} // namespace ascendprec::policy
