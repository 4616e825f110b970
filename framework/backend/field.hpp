// A distributed field's local part (owned cells + ghost layers), stored where its backend keeps
// data (host memory for Kokkos host spaces, device memory for CUDA). Created only by a Backend.
#pragma once

#include <memory>
#include <string_view>

#include "framework/field/field_layout.hpp"

namespace perksolve {

template <class Real>
class Field {
 public:
  virtual ~Field() = default;
  Field(const Field&) = delete;
  Field& operator=(const Field&) = delete;

  const FieldLayout& layout() const { return layout_; }
  // Pointer to element index(-g,-g,-g) in the backend's memory space (a device pointer for GPUs).
  virtual Real* data() = 0;
  virtual const Real* data() const = 0;
  // Name of the backend that owns the storage; ops check it before touching the data.
  virtual std::string_view backend_name() const = 0;

 protected:
  explicit Field(const FieldLayout& layout) : layout_(layout) {}

 private:
  FieldLayout layout_;
};

template <class Real>
using FieldPtr = std::unique_ptr<Field<Real>>;

}  // namespace perksolve
