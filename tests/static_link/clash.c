/*
 * clash.c - a program that names its own functions and variables like
 * aclcpu's internals (task_alloc, device_get, ...) and links statically
 * against libaclcpu.a. It links, and its own definitions are the ones it
 * calls, only if the archive exports nothing but the API.
 * Prints OK and exits 0 on success.
 */
#include <stdio.h>

#include <acl/acl.h>

/* Generic names of the library's internals, with this program's own types. */
int task_alloc_calls;
void *task_alloc(void);
int device_get(int id);
int stream_create(void);
void log_write(const char *what);
unsigned long env_u64(const char *name);
int obj_chunks[4] = {1, 2, 3, 4};
int plat_now_ns = 7;

void *task_alloc(void)
{
    task_alloc_calls++;
    return &task_alloc_calls;
}

int device_get(int id) { return id + 40; }
int stream_create(void) { return 2; }
void log_write(const char *what) { (void)what; }
unsigned long env_u64(const char *name) { return name != NULL ? 5 : 0; }

#define CHECK(call)                                                                                          \
    do {                                                                                                     \
        aclError rc_ = (call);                                                                               \
        if (rc_ != ACL_SUCCESS) {                                                                            \
            fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, #call, (int)rc_);                 \
            return 1;                                                                                        \
        }                                                                                                    \
    } while (0)

int main(void)
{
    aclrtStream stream = NULL;

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&stream));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    /* The library ran; these must still be the program's own. */
    log_write("done");
    if (task_alloc() != &task_alloc_calls || task_alloc_calls != 1 || device_get(2) != 42 || stream_create() != 2 ||
        env_u64("X") != 5 || obj_chunks[3] != 4 || plat_now_ns != 7) {
        fprintf(stderr, "the program's own definitions were replaced by the library's\n");
        return 1;
    }
    printf("OK\n");
    return 0;
}
