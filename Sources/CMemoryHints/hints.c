// The hints are inline functions of the header; SwiftPM needs a source file for the target.
#include "CMemoryHints.h"
