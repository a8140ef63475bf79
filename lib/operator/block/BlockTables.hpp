#pragma once
// The block operator's tables, filled from the structure and H's blocks in one pass over the owned atoms: each atom's
// neighbours, block and phase indices and on-site configuration (atoms of one configuration share one entry), the
// interior and boundary atoms, the distinct blocks of the chosen source, and H's infinity and Frobenius norms on the
// way.
#include "operator/HamiltonianBlocks.hpp"
#include "operator/block/BlockOperator.hpp"

namespace tbpeta::block {

// Fills op's tables; *norm_inf, *fro2: this rank's largest row sum and sum of squares. Not collective.
void BuildBlockTables(const Structure &s, const HamiltonianBlocks &blocks, BlockOperator *op, double *norm_inf,
                      double *fro2);

} // namespace tbpeta::block
