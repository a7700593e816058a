/*
 * cross_server.c - the vendor sample
 * 12_cross_server_physical_memory_sharing_withoutpid (example/1_basic_features/memory),
 * server and client in one program: `cross_server server PORT` allocates
 * physical memory, writes 123 into it with a kernel, exports a FABRIC
 * handle (pid validation off) and sends it to the client over UDP;
 * `cross_server client IP PORT` receives it, imports and maps it, then
 * sends its completion flag. aclcpu's "servers" are the processes of one
 * host (an Atlas A3 profile gives FABRIC handles): run_cross_server starts
 * both here, on 127.0.0.1, as the vendor's run_server.sh and
 * run_client.sh do on two machines.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mem_utils.h"

static aclrtPhysicalMemProp device_prop(void)
{
    aclrtPhysicalMemProp prop;
    memset(&prop, 0, sizeof(prop));
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    prop.memAttr = ACL_HBM_MEM_NORMAL;
    return prop;
}

static void allow_read_write(void *virPtr, size_t size, int32_t deviceId)
{
    aclrtMemAccessDesc accessDesc;
    memset(&accessDesc, 0, sizeof(accessDesc));
    accessDesc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    accessDesc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    accessDesc.location.id = (uint32_t)deviceId;
    if (aclrtMemSetAccess(virPtr, size, &accessDesc, 1) != ACL_SUCCESS)
        exit(1);
}

static int run_server(int32_t port)
{
    int32_t deviceId = 0;
    aclrtStream stream = NULL;
    aclrtPhysicalMemProp prop = device_prop();
    size_t granularity = 0, alignedSize;
    aclrtDrvMemHandle handle = NULL;
    void *virPtr = NULL;
    aclrtMemFabricHandle shareableHandle;
    struct sockaddr_in server_addr, client_addr;
    socklen_t client_len = sizeof(client_addr);
    char buffer[1];
    int32_t flag = 0;
    int sockfd;
    ssize_t n;

    aclInit(NULL);
    aclrtSetDevice(deviceId);
    aclrtCreateStream(&stream);
    CHECK_ERROR(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
    INFO_LOG("Server: get memory allocation granularity successfully, granularity = %d", (int32_t)granularity);
    alignedSize = ((1024 * sizeof(float) + granularity - 1) / granularity) * granularity;
    CHECK_ERROR(aclrtMallocPhysical(&handle, alignedSize, &prop, 0));
    INFO_LOG("Server: allocate physical memory successfully");
    CHECK_ERROR(aclrtReserveMemAddress(&virPtr, granularity, 0, NULL, 0));
    INFO_LOG("Server: reserve virtual memory successfully");
    CHECK_ERROR(aclrtMapMem(virPtr, granularity, 0, handle, 0));
    INFO_LOG("Server: map virtual memory address to physical memory handle");
    allow_read_write(virPtr, granularity, deviceId);
    INFO_LOG("Server: set memory access permissions successfully");
    WriteDo(1, stream, (int *)virPtr, 123);
    aclrtSynchronizeStream(stream);
    INFO_LOG("Source data: %d", 123);

    memset(&shareableHandle, 0, sizeof(shareableHandle));
    CHECK_ERROR(aclrtMemExportToShareableHandleV2(handle, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
                                                  ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &shareableHandle));
    INFO_LOG("Server: export shareable handle successfully");

    sockfd = socket(AF_INET, SOCK_DGRAM, 0);
    if (sockfd < 0) {
        ERROR_LOG("Server: create socket failed");
        return -1;
    }
    INFO_LOG("Server: create socket successfully, sockfd = %d", sockfd);
    CHECK_ERROR(aclrtMemset(&server_addr, sizeof(server_addr), 0, sizeof(server_addr)));
    server_addr.sin_family = AF_INET;
    server_addr.sin_addr.s_addr = INADDR_ANY;
    server_addr.sin_port = htons((uint16_t)port);
    if (bind(sockfd, (struct sockaddr *)&server_addr, sizeof(server_addr)) < 0) {
        ERROR_LOG("Server: bind failed");
        close(sockfd);
        return -1;
    }
    INFO_LOG("Server: bind successfully on port %d", port);
    INFO_LOG("Server: listening on port %d", port);
    if (recvfrom(sockfd, buffer, sizeof(buffer), 0, (struct sockaddr *)&client_addr, &client_len) < 0) {
        ERROR_LOG("Server: receive connection failed");
        close(sockfd);
        return -1;
    }
    INFO_LOG("Server: receive client socket successfully.");
    n = sendto(sockfd, &shareableHandle, sizeof(shareableHandle), 0, (struct sockaddr *)&client_addr, client_len);
    if (n < 0) {
        ERROR_LOG("Server: send shareable handle failed");
        close(sockfd);
        return -1;
    }
    INFO_LOG("Server: send ipc message successfully, size = %d", (int)n);
    if (recvfrom(sockfd, &flag, sizeof(flag), 0, (struct sockaddr *)&client_addr, &client_len) < 0) {
        ERROR_LOG("Server: receive completion flag failed");
        close(sockfd);
        return -1;
    }
    INFO_LOG("Server: receive ipc message successfully, flag = %d", flag);
    close(sockfd);
    INFO_LOG("Server: ipc close successfully");

    CHECK_ERROR(aclrtUnmapMem(virPtr));
    CHECK_ERROR(aclrtReleaseMemAddress(virPtr));
    CHECK_ERROR(aclrtFreePhysical(handle));
    INFO_LOG("Server: released memory successfully");
    aclrtDestroyStreamForce(stream);
    aclrtResetDeviceForce(deviceId);
    aclFinalize();
    return 0;
}

static int run_client(const char *server_ip, int32_t port)
{
    int32_t deviceId = 0;
    aclrtStream stream = NULL;
    aclrtPhysicalMemProp prop = device_prop();
    size_t granularity = 0;
    aclrtDrvMemHandle handle = NULL;
    void *virPtr = NULL;
    aclrtMemFabricHandle shareableHandle;
    struct sockaddr_in server_addr;
    socklen_t server_len = sizeof(server_addr);
    char buffer[1] = {0};
    int32_t flag = 1;
    int sockfd;

    INFO_LOG("Client: connecting to server %s:%d", server_ip, port);
    aclInit(NULL);
    aclrtSetDevice(deviceId);
    aclrtCreateStream(&stream);
    sockfd = socket(AF_INET, SOCK_DGRAM, 0);
    if (sockfd < 0) {
        ERROR_LOG("Client: create socket failed");
        return -1;
    }
    INFO_LOG("Client: create socket successfully, sockfd = %d", sockfd);
    CHECK_ERROR(aclrtMemset(&server_addr, sizeof(server_addr), 0, sizeof(server_addr)));
    server_addr.sin_family = AF_INET;
    server_addr.sin_addr.s_addr = inet_addr(server_ip);
    server_addr.sin_port = htons((uint16_t)port);
    if (sendto(sockfd, buffer, sizeof(buffer), 0, (struct sockaddr *)&server_addr, sizeof(server_addr)) < 0) {
        ERROR_LOG("Client: send connection message failed");
        close(sockfd);
        return -1;
    }
    INFO_LOG("Client: send connection message successfully");
    memset(&shareableHandle, 0, sizeof(shareableHandle));
    if (recvfrom(sockfd, &shareableHandle, sizeof(shareableHandle), 0, (struct sockaddr *)&server_addr, &server_len) <
        0) {
        close(sockfd);
        return -1;
    }
    CHECK_ERROR(aclrtMemImportFromShareableHandleV2(&shareableHandle, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC,
                                                    ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT, &handle));
    INFO_LOG("Client: import shareable handle successfully");
    CHECK_ERROR(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
    CHECK_ERROR(aclrtReserveMemAddress(&virPtr, granularity, 0, NULL, 0));
    INFO_LOG("Client: reserve virtual memory successfully");
    CHECK_ERROR(aclrtMapMem(virPtr, granularity, 0, handle, 0));
    INFO_LOG("Client: map virtual memory address to physical memory handle");
    allow_read_write(virPtr, granularity, deviceId);
    INFO_LOG("Client: set memory access permissions successfully");
    CHECK_ERROR(aclrtUnmapMem(virPtr));
    if (sendto(sockfd, &flag, sizeof(flag), 0, (struct sockaddr *)&server_addr, sizeof(server_addr)) < 0) {
        ERROR_LOG("Client: send completion flag failed");
        close(sockfd);
        return -1;
    }
    close(sockfd);
    CHECK_ERROR(aclrtReleaseMemAddress(virPtr));
    CHECK_ERROR(aclrtFreePhysical(handle));
    INFO_LOG("Client: released memory successfully");
    aclrtDestroyStreamForce(stream);
    aclrtResetDeviceForce(deviceId);
    aclFinalize();
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "server") == 0)
        return run_server(atoi(argv[2]));
    if (argc >= 4 && strcmp(argv[1], "client") == 0)
        return run_client(argv[2], atoi(argv[3]));
    fprintf(stderr, "usage: cross_server server PORT | cross_server client IP PORT\n");
    return 2;
}
