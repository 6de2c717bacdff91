// STUB for test/unreal/glue_check.sh — not Unreal's header. Declares only the core
// Unreal names the Maul3D glue uses, so a -fsyntax-only compile proves the glue is
// well-formed C++ calling our API correctly; it does not prove it builds in Unreal.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

using int8 = int8_t;
using uint8 = uint8_t;
using int32 = int32_t;
using uint32 = uint32_t;
using int64 = int64_t;
using uint64 = uint64_t;
using TCHAR = char;

#define TEXT(s) s
#define UCLASS(...)
#define USTRUCT(...)
#define UENUM(...)
#define UPROPERTY(...)
#define UFUNCTION(...)
#define UMETA(...)
#define GENERATED_BODY()
#define check(x) ((void)(x))
#define LOCTEXT(Key, Text) FText::FromString(Text)
#define NSLOCTEXT(Ns, Key, Text) FText::FromString(Text)
#define DECLARE_LOG_CATEGORY_EXTERN(Name, A, B) extern struct FLogCategory##Name Name
#define DEFINE_LOG_CATEGORY(Name) struct FLogCategory##Name {} Name
#define UE_LOG(Cat, Verb, Fmt, ...) ((void)(Cat), FString::Printf(Fmt, ##__VA_ARGS__))

template <typename T>
class TArray {
public:
    TArray() = default;
    TArray(std::initializer_list<T> l) : v(l) {}
    int32 Num() const { return static_cast<int32>(v.size()); }
    bool IsEmpty() const { return v.empty(); }
    int32 Add(const T& x) { v.push_back(x); return Num() - 1; }
    template <typename... A> T& Emplace_GetRef(A&&... a) { v.emplace_back(std::forward<A>(a)...); return v.back(); }
    void SetNum(int32 n) { v.resize(static_cast<size_t>(n)); }
    void SetNumUninitialized(int32 n) { v.resize(static_cast<size_t>(n)); }
    void Reset() { v.clear(); }
    void Empty() { v.clear(); }
    T* GetData() { return v.data(); }
    const T* GetData() const { return v.data(); }
    T& operator[](int32 i) { return v[static_cast<size_t>(i)]; }
    const T& operator[](int32 i) const { return v[static_cast<size_t>(i)]; }
    bool IsValidIndex(int32 i) const { return i >= 0 && i < Num(); }
    auto begin() { return v.begin(); }
    auto end() { return v.end(); }
    auto begin() const { return v.begin(); }
    auto end() const { return v.end(); }
private:
    std::vector<T> v;
};

class FString {
public:
    FString() = default;
    FString(const TCHAR* s) : s(s) {}
    const TCHAR* operator*() const { return s.c_str(); }
    bool IsEmpty() const { return s.empty(); }
    int32 Len() const { return static_cast<int32>(s.size()); }
    FString operator/(const FString& o) const { return FString((s + "/" + o.s).c_str()); }
    FString operator+(const FString& o) const { return FString((s + o.s).c_str()); }
    bool operator==(const FString& o) const { return s == o.s; }
    template <typename... A> static FString Printf(const TCHAR*, A&&...) { return FString(); }
    static FString FromInt(int32) { return FString(); }
    bool EndsWith(const FString&) const { return false; }
    int64 ParseInt64() const { return 0; }
private:
    std::string s;
};
struct FCString {
    static int64 Atoi64(const TCHAR*) { return 0; }
    static int32 Atoi(const TCHAR*) { return 0; }
    static double Atod(const TCHAR*) { return 0; }
};
class FName {
public:
    FName() = default;
    FName(const TCHAR*) {}
    bool operator==(const FName&) const { return true; }
};
class FText {
public:
    static FText FromString(const FString&) { return FText(); }
    static FText AsNumber(int64) { return FText(); }
    FString ToString() const { return FString(); }
};
namespace ETextCommit { enum Type { Default, OnEnter, OnUserMovedFocus, OnCleared }; }

struct FVector {
    double X = 0, Y = 0, Z = 0;
    FVector() = default;
    FVector(double x, double y, double z) : X(x), Y(y), Z(z) {}
    static const FVector ZeroVector;
    FVector operator+(const FVector& O) const { return FVector(X + O.X, Y + O.Y, Z + O.Z); }
    FVector operator-(const FVector& O) const { return FVector(X - O.X, Y - O.Y, Z - O.Z); }
    FVector operator*(double S) const { return FVector(X * S, Y * S, Z * S); }
    FVector& operator+=(const FVector& O) { X += O.X; Y += O.Y; Z += O.Z; return *this; }
    FVector GetClampedToMaxSize(double) const { return *this; }
};
struct FVector3f { float X = 0, Y = 0, Z = 0; };
struct FQuat {
    double X = 0, Y = 0, Z = 0, W = 1;
    FQuat() = default;
    FQuat(double x, double y, double z, double w) : X(x), Y(y), Z(z), W(w) {}
    static const FQuat Identity;
    static FQuat Slerp(const FQuat& A, const FQuat& B, float) { (void)B; return A; }
};
struct FRotator {
    double Pitch = 0, Yaw = 0, Roll = 0;
    FQuat Quaternion() const { return FQuat(); }
};
struct FTransform {
    FVector GetLocation() const { return FVector(); }
    FQuat GetRotation() const { return FQuat(); }
    FVector GetScale3D() const { return FVector(1, 1, 1); }
};
struct FBox {
    FBox() = default;
    FBox(const FVector&, const FVector&) {}
};
struct FColor {
    uint8 R = 0, G = 0, B = 0, A = 255;
    FColor() = default;
    FColor(uint8 r, uint8 g, uint8 b, uint8 a = 255) : R(r), G(g), B(b), A(a) {}
    static const FColor Green;
    static const FColor Red;
    static const FColor Yellow;
};
struct FLinearColor {
    float R = 0, G = 0, B = 0, A = 1;
};

template <typename T> using TSharedPtr = std::shared_ptr<T>;
template <typename T> using TSharedRef = std::shared_ptr<T>;
template <typename T> using TWeakPtr = std::weak_ptr<T>;
template <typename T> using TSharedFromThis = std::enable_shared_from_this<T>;
template <typename T, typename... A> std::shared_ptr<T> MakeShared(A&&... a) { return std::make_shared<T>(std::forward<A>(a)...); }
template <typename T> class TUniquePtr {
public:
    TUniquePtr() = default;
    TUniquePtr(std::unique_ptr<T> In) : P(std::move(In)) {}
    T* Get() const { return P.get(); }
    void Reset() { P.reset(); }
    T* operator->() const { return P.get(); }
private:
    std::unique_ptr<T> P;
};
template <typename T, typename... A> TUniquePtr<T> MakeUnique(A&&... a) { return TUniquePtr<T>(std::make_unique<T>(std::forward<A>(a)...)); }

struct FStatId {};
#define RETURN_QUICK_DECLARE_CYCLE_STAT(Name, Group) return FStatId()
using TStatId = FStatId;

// UObject world.
class UClass {};
class UObject {
public:
    virtual ~UObject() = default;
    class UWorld* GetWorld() const { return nullptr; }
    UObject* GetOuter() const { return nullptr; }
    template <typename T> bool IsA() const { return false; }
};
template <typename T> using TObjectPtr = T*;
template <typename T> class TWeakObjectPtr {
public:
    TWeakObjectPtr() = default;
    TWeakObjectPtr(T* p) : p(p) {}
    T* Get() const { return p; }
    bool IsValid() const { return p != nullptr; }
private:
    T* p = nullptr;
};
template <typename T> T* Cast(UObject* o) { return static_cast<T*>(o); }
template <typename T> const T* GetDefault() { static T t; return &t; }
template <typename T> T* GetMutableDefault() { static T t; return &t; }
class UWorld;
enum class EGetWorldErrorMode { ReturnNull, LogAndReturnNull, Assert };
struct FEngineStub {
    UWorld* GetWorldFromContextObject(const UObject*, EGetWorldErrorMode) const { return nullptr; }
};
extern FEngineStub* GEngine;

struct FMath {
    template <typename T> static T Lerp(const T& A, const T& B, float) { (void)B; return A; }
};
