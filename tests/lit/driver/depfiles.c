// Dependency files: -M, -MM, -MD, -MMD, -MF, -MT, -MP.
// RUN: rm -rf %t && mkdir -p %t && echo 'int dep_value(void);' > %t/dep.h
// RUN: %adcc -M -I%t %s | FileCheck %s --check-prefix=M
// RUN: %adcc -MM -I%t %s | FileCheck %s --check-prefix=MM
// RUN: %adcc -c -MD -MF %t/a.d -I%t %s -o %t/a.o && FileCheck %s --check-prefix=M < %t/a.d
// RUN: %adcc -c -MMD -MP -MT custom-target -MF %t/b.d -I%t %s -o %t/b.o && FileCheck %s --check-prefix=MP < %t/b.d
// RUN: cd %t && %adcc -c -MMD -I%t %s -o %t/c.o && FileCheck %s --check-prefix=MM < %t/c.d
#include "dep.h"
#include <stdio.h>

int use(void) { return dep_value() + (int)sizeof(FILE); }

// M: .o:
// M: depfiles.c
// M: dep.h
// M: stdio.h
// MM: .o:
// MM: depfiles.c
// MM: dep.h
// MM-NOT: stdio.h
// MP: custom-target:
// MP: depfiles.c
// MP: dep.h
// MP-NOT: stdio.h
// MP: {{.*}}dep.h:
