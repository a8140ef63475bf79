#pragma once
// A large array written once by its builder and then only read, which several owners hold without a copy: the
// structure's bonds, which the on-the-fly operator applies H along. Copies share the elements; the elements live as
// long as any holder.
#include <cstddef>
#include <memory>

#include "support/LargeArrays.hpp"

namespace tbpeta {

template <class T>
class SharedArray {
public:
  const T &operator[](std::size_t i) const { return (*v_)[i]; }
  T &operator[](std::size_t i) { return (*v_)[i]; } // while it is built, before anyone shares it
  std::size_t size() const { return v_->size(); }
  bool empty() const { return v_->empty(); }
  void reserve(std::size_t n) { v_->reserve(n); }
  void push_back(const T &x) { v_->push_back(x); }
  // The elements, for another holder.
  std::shared_ptr<const LargeVector<T>> share() const { return v_; }

private:
  std::shared_ptr<LargeVector<T>> v_ = std::make_shared<LargeVector<T>>();
};

} // namespace tbpeta
