#pragma once
// STUB for test/unreal/glue_check.sh (see README.md): not Unreal's header.
#include "M3StubEngine.h"
