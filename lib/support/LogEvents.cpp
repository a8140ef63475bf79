#include "support/LogEvents.hpp"

namespace tbpeta {

PetscErrorCode GetLogEvents(const LogEvents **events) {
  static LogEvents ev;
  static bool registered = false;
  PetscFunctionBeginUser;
  if (!registered) {
    PetscCall(PetscClassIdRegister("tbpeta", &ev.classid));
    PetscCall(PetscLogEventRegister("TbStructure", ev.classid, &ev.structure));
    PetscCall(PetscLogEventRegister("TbNeighbours", ev.classid, &ev.neighbours));
    PetscCall(PetscLogEventRegister("TbAssembly", ev.classid, &ev.assembly));
    PetscCall(PetscLogEventRegister("TbProduct", ev.classid, &ev.product));
    PetscCall(PetscLogEventRegister("TbSolve", ev.classid, &ev.solve));
    PetscCall(PetscLogEventRegister("TbOutput", ev.classid, &ev.output));
    PetscCall(PetscLogEventRegister("TbStrainGradient", ev.classid, &ev.strain_gradient));
    PetscCall(PetscLogEventRegister("TbStrainEnergy", ev.classid, &ev.strain_energy));
    PetscCall(PetscLogEventRegister("TbRelaxation", ev.classid, &ev.relaxation));
    PetscCall(PetscLogEventRegister("TbLanczosProduct", ev.classid, &ev.lanczos_product));
    PetscCall(PetscLogEventRegister("TbLanczosVectors", ev.classid, &ev.lanczos_vectors));
    PetscCall(PetscLogEventRegister("TbLanczosRitz", ev.classid, &ev.lanczos_ritz));
    PetscCall(PetscLogEventRegister("TbStrainPCSetUp", ev.classid, &ev.strain_pc_setup));
    PetscCall(PetscLogEventRegister("TbStrainPCApply", ev.classid, &ev.strain_pc_apply));
    PetscCall(PetscLogEventRegister("TbFields", ev.classid, &ev.fields));
    PetscCall(PetscLogEventRegister("TbPoisson", ev.classid, &ev.poisson));
    PetscCall(PetscLogEventRegister("TbMomentum", ev.classid, &ev.momentum));
    PetscCall(PetscLogEventRegister("TbBinding", ev.classid, &ev.binding));
    registered = true;
  }
  *events = &ev;
  PetscFunctionReturn(0);
}

} // namespace tbpeta
