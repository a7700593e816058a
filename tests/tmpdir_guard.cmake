# tmpdir_guard.cmake - the TMPDIR of every CTest test of tests/ (tests/CMakeLists.txt).
#   cmake -DDIR=<folder> -DMODE=fresh -P tmpdir_guard.cmake   empties the folder (fixture setup)
#   cmake -DDIR=<folder> -DMODE=empty -P tmpdir_guard.cmake   fails, naming them, if the tests left anything there
# A test that leaves a file or folder behind would fill a user's /tmp run after run.
if(NOT DIR OR NOT MODE)
  message(FATAL_ERROR "usage: cmake -DDIR=<folder> -DMODE=fresh|empty -P tmpdir_guard.cmake")
endif()
if(MODE STREQUAL "fresh")
  file(REMOVE_RECURSE "${DIR}")
  file(MAKE_DIRECTORY "${DIR}")
elseif(MODE STREQUAL "empty")
  file(GLOB left LIST_DIRECTORIES true "${DIR}/*" "${DIR}/.*")
  if(left)
    list(LENGTH left n)
    list(JOIN left "\n  " shown)
    message(FATAL_ERROR "the tests left ${n} entries in their TMPDIR ${DIR}:\n  ${shown}\n"
      "each test must remove what it makes there, whether it passes or fails")
  endif()
  message(STATUS "nothing left in ${DIR}")
else()
  message(FATAL_ERROR "MODE must be fresh or empty, not ${MODE}")
endif()
