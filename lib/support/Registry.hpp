#pragma once
// The registry of one family of kinds (dot shapes, operator kinds, on-site terms, eigen-solver types), as PETSc's
// PetscFunctionList is of its types: the built-in kinds in the order they are listed, then those a program or a test
// adds at run time, before the options are read. A name given again replaces its kind in place; a kind keeps its
// address whatever is added after it (a deque), so a pointer that Find returned stays valid.
#include <deque>
#include <initializer_list>
#include <string_view>

namespace tbpeta {

template <class Kind>
class Registry {
public:
  Registry() = default;
  Registry(std::initializer_list<Kind> built_in) : kinds_(built_in) {}

  // Adds `kind` after the others, or replaces the kind of the same name (Kind::name: a C string or a std::string).
  void Add(const Kind &kind) {
    if (Kind *same = find(kind.name)) *same = kind;
    else kinds_.push_back(kind);
  }
  // The kind called `name`, or nullptr.
  const Kind *Find(std::string_view name) const { return const_cast<Registry *>(this)->find(name); }
  // Every kind, in the order they were registered.
  const std::deque<Kind> &all() const { return kinds_; }

private:
  Kind *find(std::string_view name) {
    for (Kind &k : kinds_)
      if (std::string_view(k.name) == name) return &k;
    return nullptr;
  }
  std::deque<Kind> kinds_;
};

} // namespace tbpeta
